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
/// - ``threadLimit`` threads run work that moves;
/// - a job that has run for ``slowAfter`` (a locked keyring, a `simctl` that hangs, the
///   parse of a huge file) stops counting against that limit, so lanes waiting in line get
///   a thread of their own; such slow jobs may hold at most ``slowThreadLimit`` threads more;
/// - past both limits, lanes wait in line: the pool never has more than
///   ``threadLimit`` + ``slowThreadLimit`` threads.
/// One lane holds at most two threads (its running job and one job it left behind, see
/// ``WorkLane/abandon(_:)``), so one connection alone cannot take the slow threads.
///
/// Thread-safe: submit from any thread.
package final class WorkPool: Sendable {
    /// The most threads running work that moves (not stuck for ``slowAfter``).
    package let threadLimit: Int
    /// The most threads more that jobs running longer than ``slowAfter`` may hold.
    package let slowThreadLimit: Int
    /// How long a job runs before it counts as slow: the longest a lane in line waits for a
    /// thread while the pool can still start one.
    package let slowAfter: Duration
    /// How long a thread with nothing to do waits before it ends.
    package static let idleLifetime: Duration = .seconds(10)

    private struct State {
        /// Lanes with a job to run and no job running, in the order they became ready.
        var ready: [WorkLane] = []
        var readyStart = 0
        var threads = 0
        var idle = 0
        /// When each thread that runs a job now started it, by the thread's number.
        var busySince: [Int: ContinuousClock.Instant] = [:]
        var nextThread = 0
        /// Whether a look for slow jobs is due (one at a time).
        var recheckArmed = false

        var hasReady: Bool { readyStart < ready.count }
    }

    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)
    private let name: String

    /// - Parameters:
    ///   - threadLimit: the most threads running work that moves; by default the processor
    ///     count plus two (for work that waits rather than computes), at most eight.
    ///   - slowThreadLimit: the most threads more for jobs slower than `slowAfter`; 12 by default.
    ///   - slowAfter: how long a job runs before it counts as slow; 100 ms by default.
    ///   - name: the threads' name, for debuggers.
    package init(
        threadLimit: Int? = nil, slowThreadLimit: Int = 12, slowAfter: Duration = .milliseconds(100),
        name: String = "jarvis-work"
    ) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        self.threadLimit = max(1, threadLimit ?? min(cores + 2, 8))
        self.slowThreadLimit = max(0, slowThreadLimit)
        self.slowAfter = slowAfter
        self.name = name
    }

    /// A new lane: jobs submitted to it run one at a time, in order.
    package func lane() -> WorkLane {
        WorkLane(pool: self)
    }

    /// Threads running now, for tests and diagnostics.
    package var threadCount: Int { state.withLock { $0.threads } }

    /// Puts a lane that has work and is not running in line; wakes or starts a thread if the
    /// limits allow.
    func schedule(_ lane: WorkLane) {
        let start = state.withLock { state -> Bool? in
            state.ready.append(lane)
            return claimThread(&state, now: .now)
        }
        act(start)
    }

    /// What to do for the lanes in line: nil when they wait, true to start a thread, false
    /// to wake an idle one (already counted as woken).
    private func claimThread(_ state: inout State, now: ContinuousClock.Instant) -> Bool? {
        guard state.hasReady else { return nil }
        if state.idle > 0 {
            state.idle -= 1
            return false
        }
        if state.threads < threadLimit {
            state.threads += 1
            return true
        }
        let slow = state.busySince.values.reduce(0) { $0 + (now - $1 >= slowAfter ? 1 : 0) }
        if state.threads - slow < threadLimit, state.threads < threadLimit + slowThreadLimit {
            state.threads += 1
            return true
        }
        // Every thread moves or the bound is reached: look again once the running jobs could
        // count as slow.
        if !state.recheckArmed, state.threads < threadLimit + slowThreadLimit {
            state.recheckArmed = true
            armRecheck()
        }
        return nil
    }

    private func act(_ start: Bool?) {
        switch start {
        case true?:
            let number = state.withLock { state -> Int in
                state.nextThread += 1
                return state.nextThread
            }
            let thread = Thread { [self] in run(number) }
            thread.name = name
            thread.start()
        case false?: signal.signal()
        case nil: break
        }
    }

    private func armRecheck() {
        let milliseconds = Int(slowAfter.components.seconds * 1000 + slowAfter.components.attoseconds / 1_000_000_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(max(1, milliseconds))) { [self] in
            // A thread for each lane in line, as far as the limits allow.
            let actions = state.withLock { state -> [Bool] in
                state.recheckArmed = false
                var actions: [Bool] = []
                let now = ContinuousClock.now
                for _ in state.readyStart..<state.ready.count {
                    guard let action = claimThread(&state, now: now) else { break }
                    actions.append(action)
                }
                return actions
            }
            for action in actions { act(action) }
        }
    }

    private func run(_ number: Int) {
        Self.nameCurrentThread(name)
        while true {
            if let lane = takeReady(number) {
                lane.runNext()
                state.withLock { _ = $0.busySince.removeValue(forKey: number) }
                continue
            }
            // Nothing in line: wait for a signal, or end after a while without work.
            state.withLock { $0.idle += 1 }
            let timeout = DispatchTime.now() + .milliseconds(Int(Self.idleLifetime.components.seconds * 1000))
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

    private func takeReady(_ number: Int) -> WorkLane? {
        state.withLock { state in
            guard state.hasReady else { return nil }
            let lane = state.ready[state.readyStart]
            state.readyStart += 1
            if state.readyStart == state.ready.count {
                state.ready.removeAll(keepingCapacity: true)
                state.readyStart = 0
            }
            state.busySince[number] = .now
            return lane
        }
    }
}
