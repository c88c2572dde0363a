import JarvisCore

/// One connection's side of watching: where its notifications go, which subscriptions it
/// owns, and what must happen once the current reply has been sent.
package final class WatchSession: Sendable {
    /// Where the connection stands: notifications have somewhere to go only while attached.
    private enum Link {
        /// No connection yet (or a test calling the service directly).
        case detached
        /// Notifications go to the sink.
        case attached(ChangeEngine.Sink)
        /// The connection is gone; nothing is sent again.
        case ended
    }

    private struct State {
        var link = Link.detached
        var subscriptions: [String: ChangeEngine] = [:]
        var afterReply: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    /// The most subscriptions one connection may hold.
    package static let maxSubscriptions = 32

    package init() {}

    /// Where to send notifications; set by the transport when the connection opens.
    package func attach(_ sink: @escaping ChangeEngine.Sink) {
        state.withLock { state in
            if case .detached = state.link { state.link = .attached(sink) }
        }
    }

    /// The sink, or nil for a session with no connection (a test calling the service directly).
    package var sink: ChangeEngine.Sink? {
        state.withLock { state in
            if case .attached(let sink) = state.link { return sink }
            return nil
        }
    }

    /// How many subscriptions the connection holds.
    package var count: Int { state.withLock { $0.subscriptions.count } }

    /// Remembers a subscription and releases its held lines once the reply to `watch` is out.
    package func added(_ id: String, on engine: ChangeEngine) {
        state.withLock {
            $0.subscriptions[id] = engine
            $0.afterReply.append { engine.release(id) }
        }
    }

    /// Ends one subscription of this connection; false when it does not own one by that id.
    package func remove(_ id: String) -> Bool {
        guard let engine = state.withLock({ $0.subscriptions.removeValue(forKey: id) }) else { return false }
        return engine.unsubscribe(id)
    }

    /// Runs what waited for the reply just sent. Called by the transport after each reply.
    package func replied() {
        let actions = state.withLock { state in
            defer { state.afterReply = [] }
            return state.afterReply
        }
        for action in actions { action() }
    }

    /// Ends every subscription: the connection is gone.
    package func end() {
        let owned = state.withLock { state in
            defer {
                state.subscriptions = [:]
                state.afterReply = []
                state.link = .ended
            }
            return state.subscriptions
        }
        for (id, engine) in owned { engine.unsubscribe(id) }
    }
}
