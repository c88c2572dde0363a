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
    /// A job and the number that names it, for ``abandon(_:)``.
    private struct Job {
        var number: UInt64
        var body: @Sendable () -> Void
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
    }

    private let pool: WorkPool
    private let state = Locked(State())

    init(pool: WorkPool) {
        self.pool = pool
    }

    /// Runs `job` on the pool after every job submitted before it.
    ///
    /// - Returns: the job's number, for ``abandon(_:)``.
    @discardableResult
    package func submit(_ job: @escaping @Sendable () -> Void) -> UInt64 {
        let (number, schedule) = state.withLock { state -> (UInt64, Bool) in
            let number = state.nextNumber
            state.nextNumber &+= 1
            state.jobs.append(Job(number: number, body: job))
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

    /// Gives up on job `number`: one that has not started is dropped; the one running is left
    /// behind, and the lane's next job may start on another thread now, unless the lane
    /// already left another job behind that still runs (then the lane waits for this one).
    /// Nothing happens if that job already ended.
    package func abandon(_ number: UInt64) {
        let again = state.withLock { state -> Bool in
            if let queued = state.jobs[state.jobsStart...].firstIndex(where: { $0.number == number }) {
                state.jobs.remove(at: queued)
                return false
            }
            guard state.running == number, state.leftBehind == nil else { return false }
            state.leftBehind = number
            return Self.next(&state)
        }
        if again { pool.schedule(self) }
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

    /// Runs the lane's next job on the calling pool thread, then puts the lane back in line
    /// if more are waiting.
    func runNext() {
        let next = state.withLock { state -> Job? in
            guard state.jobsStart < state.jobs.count else {
                state.scheduled = false
                return nil
            }
            let job = state.jobs[state.jobsStart]
            state.jobsStart += 1
            if state.jobsStart == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: true)
                state.jobsStart = 0
            }
            state.running = job.number
            return job
        }
        guard let next else { return }
        next.body()
        // Abandoned meanwhile, the lane went on without this job and `finish` does nothing.
        finish(next.number)
    }
}
