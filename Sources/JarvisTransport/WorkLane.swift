import JarvisCore

/// One connection's line of work on a ``WorkPool``: jobs run one at a time, in the order
/// they were submitted, on the pool's threads.
///
/// A job that is stuck (a storage call that does not return) can be left behind with
/// ``abandon(_:)``: the lane goes on with its next job on another thread, and the stuck one
/// keeps its thread until it returns. A lane leaves at most one job behind at a time: while
/// that one still runs, a second stuck job is waited for, so one connection never holds more
/// than two of the pool's threads. A job abandoned before it started never runs. Thread-safe.
package final class WorkLane: Sendable {
    /// A job, the number that names it (for ``abandon(_:)``) and the group whose threads it
    /// counts against (see ``WorkPool``).
    struct Job: Sendable {
        var number: UInt64
        var group: String?
        var body: @Sendable () -> Void
    }

    /// What ``takeNext(if:)`` found.
    enum Take {
        /// No job left: the lane is out of its pool's line.
        case empty
        /// The next job's group has no room now: the lane stays in line.
        case groupFull
        /// The next job, now the lane's running one.
        case job(Job)
    }

    private struct State {
        var jobs: [Job] = []
        var jobsStart = 0
        /// The job running now, if any; nil when the lane is idle or waits for a thread.
        var running: UInt64?
        /// Whether the lane is in its pool's line or running.
        var scheduled = false
        var nextNumber: UInt64 = 1
        /// The job left behind that still runs, if any.
        var leftBehind: UInt64?
        /// Told once the waiting jobs fall to `resumeAt` (see ``isBacklogged(limit:resume:)``).
        var resume: (@Sendable () -> Void)?
        var resumeAt = 0

        var waiting: Int { jobs.count - jobsStart }
    }

    private let pool: WorkPool
    private let state = Locked(State())

    init(pool: WorkPool) {
        self.pool = pool
    }

    /// Runs `job` on the pool after every job submitted before it.
    ///
    /// - Parameter group: the storage the job may wait on (e.g. its scanner's id), so that one
    ///   stuck storage holds at most ``WorkPool/groupLimit`` threads; nil when it names none
    ///   (such jobs form one group of their own).
    /// - Returns: the job's number, for ``abandon(_:)``.
    @discardableResult
    package func submit(group: String? = nil, _ job: @escaping @Sendable () -> Void) -> UInt64 {
        let (number, schedule) = state.withLock { state -> (UInt64, Bool) in
            let number = state.nextNumber
            state.nextNumber &+= 1
            state.jobs.append(Job(number: number, group: group, body: job))
            guard !state.scheduled else { return (number, false) }
            state.scheduled = true
            return (number, true)
        }
        if schedule { pool.schedule(self) }
        return number
    }

    /// Whether a job is waiting or running: work submitted now runs after it.
    package var isBusy: Bool {
        state.withLock { $0.scheduled }
    }

    /// Whether `limit` jobs or more wait to start, so that the connection should read no more
    /// requests for now: what a client that sends without waiting for answers makes the agent
    /// hold stays bounded. When true, `resume` is called once, on a pool thread, when the
    /// waiting jobs have fallen to half of `limit`.
    package func isBacklogged(limit: Int, resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.waiting >= limit else { return false }
            state.resume = resume
            state.resumeAt = limit / 2
            return true
        }
    }

    /// Calls the waiting `resume` once the backlog fell far enough.
    private func resumeIfDrained() {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            guard let resume = state.resume, state.waiting <= state.resumeAt else { return nil }
            state.resume = nil
            return resume
        }
        resume?()
    }

    /// Gives up on job `number`: one that has not started is dropped; the one running is left
    /// behind, and the lane's next job may start on another thread now, unless the lane
    /// already left another job behind that still runs (then the lane waits for this one).
    /// Nothing happens if that job already ended.
    package func abandon(_ number: UInt64) {
        enum Then { case nothing, schedule, reconsider }
        let then = state.withLock { state -> Then in
            if let queued = state.jobs[state.jobsStart...].firstIndex(where: { $0.number == number }) {
                let wasNext = queued == state.jobsStart
                state.jobs.remove(at: queued)
                // The lane may wait in line for room in that job's group: its next job, of
                // another group perhaps, may run now.
                return wasNext && state.running == nil && state.scheduled ? .reconsider : .nothing
            }
            guard state.running == number, state.leftBehind == nil else { return .nothing }
            state.leftBehind = number
            return Self.next(&state) ? .schedule : .nothing
        }
        resumeIfDrained()
        switch then {
        case .schedule: pool.schedule(self)
        case .reconsider: pool.reconsider(self)
        case .nothing: break
        }
    }

    /// Job `number` returned: the lane goes back in its pool's line if more jobs wait.
    /// Nothing happens for the lane's order if it was left behind.
    private func finish(_ number: UInt64) {
        let again = state.withLock { state -> Bool in
            if state.leftBehind == number {
                state.leftBehind = nil
                return false
            }
            guard state.running == number else { return false }
            return Self.next(&state)
        }
        if again { pool.schedule(self) }
    }

    /// The running job is over for the lane: whether the lane must go back in line.
    private static func next(_ state: inout State) -> Bool {
        state.running = nil
        guard state.jobsStart < state.jobs.count else {
            state.scheduled = false
            return false
        }
        return true
    }

    /// The group of the job that runs next; nil when no job waits.
    var nextGroup: String?? {
        state.withLock { state in state.jobsStart < state.jobs.count ? .some(state.jobs[state.jobsStart].group) : nil }
    }

    /// Takes the lane's next job to run now, when `hasRoom` says its group may take a thread.
    /// Called by the pool under its own lock.
    func takeNext(if hasRoom: (String?) -> Bool) -> Take {
        state.withLock { state in
            guard state.jobsStart < state.jobs.count else {
                state.scheduled = false
                return .empty
            }
            let job = state.jobs[state.jobsStart]
            guard hasRoom(job.group) else { return .groupFull }
            state.jobsStart += 1
            if state.jobsStart == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: state.jobs.count <= 64)
                state.jobsStart = 0
            } else if state.jobsStart >= 64, state.jobsStart * 2 >= state.jobs.count {
                // Jobs taken hold their requests until they leave the array: a lane that never
                // empties (a client that pipelines) would otherwise keep every one it ran.
                state.jobs.removeFirst(state.jobsStart)
                state.jobsStart = 0
            }
            state.running = job.number
            return .job(job)
        }
    }

    /// Runs `job`, taken with ``takeNext(if:)``, on the calling pool thread, then puts the lane
    /// back in line if more are waiting.
    func run(_ job: Job) {
        resumeIfDrained()
        job.body()
        // Abandoned meanwhile, the lane went on without this job and `finish` does nothing.
        finish(job.number)
    }
}
