import Dispatch
import Foundation
import JarvisCore

/// A small, bounded set of threads for work that may wait on storage or another process
/// (a file's `fsync`, a keyring, `simctl`), so that a readiness loop never does.
///
/// Work comes in through ``WorkLane``s, one per connection: a lane runs its jobs one at a
/// time, in the order they were submitted, and lanes take turns on the threads. At most
/// ``threadLimit`` threads exist; they are started when work arrives and end after
/// ``idleLifetime`` without any, so an idle agent keeps none. When every thread is busy,
/// lanes wait in line: the pool never grows past its limit.
///
/// Thread-safe: submit from any thread.
package final class WorkPool: Sendable {
    /// The most threads the pool runs at once.
    package let threadLimit: Int
    /// How long a thread with nothing to do waits before it ends.
    package static let idleLifetime: Duration = .seconds(10)

    private struct State {
        /// Lanes with a job to run and no job running, in the order they became ready.
        var ready: [WorkLane] = []
        var readyStart = 0
        var threads = 0
        var idle = 0
    }

    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)
    private let name: String

    /// - Parameters:
    ///   - threadLimit: the most threads; by default the processor count plus two (for work
    ///     that waits rather than computes), at most eight.
    ///   - name: the threads' name, for debuggers.
    package init(threadLimit: Int? = nil, name: String = "jarvis-work") {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        self.threadLimit = max(1, threadLimit ?? min(cores + 2, 8))
        self.name = name
    }

    /// A new lane: jobs submitted to it run one at a time, in order.
    package func lane() -> WorkLane {
        WorkLane(pool: self)
    }

    /// Threads running now, for tests and diagnostics.
    package var threadCount: Int { state.withLock { $0.threads } }

    /// Puts a lane that has work and is not running in line; starts a thread if none is idle
    /// and the limit allows.
    func schedule(_ lane: WorkLane) {
        let startThread = state.withLock { state -> Bool in
            state.ready.append(lane)
            if state.idle > 0 {
                state.idle -= 1
                return false
            }
            guard state.threads < threadLimit else { return false }
            state.threads += 1
            return true
        }
        if startThread {
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.start()
        } else {
            signal.signal()
        }
    }

    private func run() {
        while true {
            if let lane = takeReady() {
                lane.runNext()
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

    private func takeReady() -> WorkLane? {
        state.withLock { state in
            guard state.readyStart < state.ready.count else { return nil }
            let lane = state.ready[state.readyStart]
            state.readyStart += 1
            if state.readyStart == state.ready.count {
                state.ready.removeAll(keepingCapacity: true)
                state.readyStart = 0
            }
            return lane
        }
    }
}
