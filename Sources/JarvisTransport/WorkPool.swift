import Dispatch
import Foundation
import JarvisCore

/// A small, bounded set of threads for work that may wait on storage or another process
/// (a file's `fsync`, a keyring, `simctl`), so that a readiness loop never does.
///
/// Work comes in through ``WorkLane``s, one per connection: a lane runs its jobs one at a
/// time, in the order they were submitted, and lanes take turns on the threads. Threads are
/// started when work arrives and end after ``idleLifetime`` without any, so an idle agent
/// keeps none.
///
/// Bounds, so that stuck calls never starve the others and nothing grows without limit:
/// - the pool never runs more than ``threadLimit`` threads; past it, lanes wait in line;
/// - the jobs of one group (a job names the storage it may wait on, e.g. its scanner's id;
///   jobs that name none form one group too) hold at most ``groupLimit`` threads at once,
///   so one stuck storage (a locked keyring, a `simctl` that hangs) cannot take the whole
///   pool: a lane whose next job belongs to a full group waits, and lanes behind it whose
///   next job belongs to another group go first.
/// One lane holds at most two threads (its running job and one job it left behind, see
/// ``WorkLane/abandon(_:)``), so one connection alone cannot take a group's threads.
///
/// Thread-safe: submit from any thread.
package final class WorkPool: Sendable {
    /// The most threads the pool runs at once.
    package let threadLimit: Int
    /// The most threads the jobs of one group hold at once.
    package let groupLimit: Int
    /// How long a thread with nothing to do waits before it ends.
    package static let idleLifetime: Duration = .seconds(10)

    private struct State {
        /// Lanes with a job to run and no job running, in the order they became ready.
        var ready: [WorkLane] = []
        var threads = 0
        var idle = 0
        /// The threads each group's running jobs hold (a group with none is absent).
        var running: [String?: Int] = [:]
    }

    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)
    private let name: String

    /// - Parameters:
    ///   - threadLimit: the most threads; by default the processor count (at most eight) plus
    ///     four, for work that waits rather than computes.
    ///   - groupLimit: the most threads one group's jobs hold; by default half of
    ///     `threadLimit`, so a stuck storage leaves the other half to the rest.
    ///   - name: the threads' name, for debuggers.
    package init(threadLimit: Int? = nil, groupLimit: Int? = nil, name: String = "jarvis-work") {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threads = max(1, threadLimit ?? min(cores, 8) + 4)
        self.threadLimit = threads
        self.groupLimit = min(threads, max(1, groupLimit ?? threads / 2))
        self.name = name
    }

    /// A new lane: jobs submitted to it run one at a time, in order.
    package func lane() -> WorkLane {
        WorkLane(pool: self)
    }

    /// Threads running now, for tests and diagnostics.
    package var threadCount: Int { state.withLock { $0.threads } }

    /// Puts a lane that has work and is not running in line; wakes or starts a thread if the
    /// limits allow and the lane's group has room.
    func schedule(_ lane: WorkLane) {
        wake(for: lane, adding: true)
    }

    /// A lane already in line whose next job changed (the one before was given up): wakes or
    /// starts a thread if that job may run now.
    func reconsider(_ lane: WorkLane) {
        wake(for: lane, adding: false)
    }

    private func wake(for lane: WorkLane, adding: Bool) {
        let start = state.withLock { state -> Bool? in
            if adding { state.ready.append(lane) }
            guard hasRoom(lane.nextGroup, in: state) else { return nil }
            if state.idle > 0 {
                state.idle -= 1
                return false
            }
            guard state.threads < threadLimit else { return nil }
            state.threads += 1
            return true
        }
        switch start {
        case true?:
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.start()
        case false?: signal.signal()
        case nil: break
        }
    }

    /// Whether a job of `group` may take a thread now. A lane with no job left (all given
    /// up) has room: taking it only drops it from the line.
    private func hasRoom(_ group: String??, in state: State) -> Bool {
        guard let group else { return true }
        return state.running[group, default: 0] < groupLimit
    }

    private func run() {
        Self.nameCurrentThread(name)
        while true {
            if let (lane, job) = takeReady() {
                lane.run(job)
                state.withLock { state in
                    let left = state.running[job.group, default: 1] - 1
                    state.running[job.group] = left > 0 ? left : nil
                }
                continue
            }
            // Nothing in line that may run: wait for a signal, or end after a while without work.
            state.withLock { $0.idle += 1 }
            let lifetime = Int(clamping: Self.idleLifetime.wholeNanoseconds(rounded: .up))
            let timeout = DispatchTime.now() + .nanoseconds(lifetime)
            if signal.wait(timeout: timeout) == .success { continue }
            let ended = state.withLock { state -> Bool in
                // A signal may have been promised to this thread between the timeout and here.
                guard state.idle > 0 else { return false }
                state.idle -= 1
                state.threads -= 1
                return true
            }
            if ended { return }
            // Promised a signal: take it, so the count of signals stays that of idle threads.
            signal.wait()
        }
    }

    /// The first lane in line whose next job's group has room, with that job (now counted as
    /// running); nil when none may run. Lanes found with no job left leave the line.
    private func takeReady() -> (WorkLane, WorkLane.Job)? {
        state.withLock { state in
            var position = 0
            while position < state.ready.count {
                let lane = state.ready[position]
                // The pool's lock, then the lane's: a lane never calls the pool under its own.
                switch lane.takeNext(if: { state.running[$0, default: 0] < groupLimit }) {
                case .empty:
                    state.ready.remove(at: position)
                case .groupFull:
                    position += 1
                case .job(let job):
                    state.ready.remove(at: position)
                    state.running[job.group, default: 0] += 1
                    return (lane, job)
                }
            }
            return nil
        }
    }
}
