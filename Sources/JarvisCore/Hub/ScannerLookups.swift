import Dispatch

/// Asks the same small question of several scanners at once (which of them holds a container
/// of this name), each on a serial queue of its own, and waits a bounded time: a scanner whose
/// storage never answers (a keyring waiting for an unlock) is named as not answering instead
/// of holding up the answer of every other.
///
/// Bounds: one scanner's queue holds at most one call running and one waiting; a question
/// that finds its scanner's queue full is not asked and counts as not answered at once. So a
/// stuck scanner holds one thread, however many clients ask. Thread-safe.
package final class ScannerLookups: Sendable {
    private struct Lane {
        let queue: DispatchQueue
        /// Calls running or waiting on the queue.
        var pending = 0
    }

    private let lanes = Locked<[String: Lane]>([:])
    /// The most calls one scanner's queue holds: the one running and one waiting.
    static let maxPending = 2

    package init() {}

    /// `body` of each scanner in `scanners`, asked at once; a scanner that has not answered
    /// within `wait` is left out of the answer (a later answer is dropped).
    package func ask<Answer: Sendable>(
        _ scanners: [String], wait: Duration, _ body: @escaping @Sendable (String) -> Answer
    ) -> [String: Answer] {
        let answers = Locked<[String: Answer]?>([:])
        let group = DispatchGroup()
        for id in scanners {
            guard let queue = take(id) else { continue }
            group.enter()
            queue.async { [self] in
                let answer = body(id)
                answers.withLock { $0?[id] = answer }
                release(id)
                group.leave()
            }
        }
        _ = group.wait(timeout: .now() + .nanoseconds(Int(clamping: wait.wholeNanoseconds(rounded: .up))))
        // Closed: what answers after this is not this caller's any more.
        return answers.withLock { answers in
            defer { answers = nil }
            return answers ?? [:]
        }
    }

    /// The scanner's queue with a call counted on it; nil when it is full.
    private func take(_ id: String) -> DispatchQueue? {
        lanes.withLock { lanes in
            var lane = lanes[id] ?? Lane(queue: DispatchQueue(label: "jarvis.lookup.\(id)"))
            guard lane.pending < Self.maxPending else { return nil }
            lane.pending += 1
            lanes[id] = lane
            return lane.queue
        }
    }

    private func release(_ id: String) {
        lanes.withLock { $0[id]?.pending -= 1 }
    }
}
