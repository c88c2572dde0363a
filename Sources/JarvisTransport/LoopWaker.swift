import JarvisCore

/// Wakes a server's readiness loop from any thread, and tells it which connections have news
/// (output queued, a close asked for).
///
/// A burst of wake-ups writes one byte to the pipe: the loop takes every id at once and
/// drains the pipe. After `close()` (when the loop ends) wake-ups do nothing, so a notifier
/// holding a stale connection can never write to a reused descriptor number.
final class LoopWaker: Sendable {
    private let pipe: WakePipe
    private let state = Locked(State())

    private struct State {
        var ready: [UInt64] = []
        var signalled = false
        var closed = false
    }

    /// Opens the pipe.
    init() throws(SocketError) {
        pipe = try WakePipe.make()
    }

    /// The descriptor the loop watches.
    var readEnd: Int32 { pipe.readEnd }

    /// Wakes the loop for connection `id` (nil: for the server itself, e.g. `stop()`).
    func wake(_ id: UInt64?) {
        state.withLock { state in
            guard !state.closed else { return }
            if let id { state.ready.append(id) }
            guard !state.signalled else { return }
            state.signalled = true
            pipe.signal()
        }
    }

    /// On the loop: the connections woken since the last call; empties the pipe.
    func take() -> [UInt64] {
        state.withLock { state in
            pipe.drain()
            state.signalled = false
            defer { state.ready.removeAll(keepingCapacity: true) }
            return state.ready
        }
    }

    /// Releases the pipe; later wake-ups are ignored.
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            pipe.close()
        }
    }
}
