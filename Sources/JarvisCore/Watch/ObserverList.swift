/// Handlers registered by observers, called in no particular order. Cheap when empty, so a
/// source may notify on every change whether or not anybody listens.
package final class ObserverList<Payload: Sendable>: Sendable {
    package typealias Handler = @Sendable (Payload) -> Void

    private struct State {
        var next: UInt64 = 0
        var handlers: [UInt64: Handler] = [:]
    }

    private let state = Locked(State())

    package init() {}

    /// Adds a handler; keep the token and pass it to ``remove(_:)`` to stop.
    package func add(_ handler: @escaping Handler) -> UInt64 {
        state.withLock { state in
            state.next += 1
            state.handlers[state.next] = handler
            return state.next
        }
    }

    /// Removes a handler. Idempotent.
    package func remove(_ token: UInt64) {
        state.withLock { _ = $0.handlers.removeValue(forKey: token) }
    }

    /// Whether anybody listens.
    package var isEmpty: Bool { state.withLock { $0.handlers.isEmpty } }

    /// Calls every handler, outside the lock, on the caller's thread.
    package func notify(_ payload: Payload) {
        let handlers = state.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(payload) }
    }
}
