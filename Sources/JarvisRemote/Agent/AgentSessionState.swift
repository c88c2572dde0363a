import JarvisCore

/// What the agent remembers about one connection: whether it said hello, and who it is.
package final class AgentSessionState: Sendable {
    private struct State {
        var clientName: String?
        var saidHello = false
    }

    private let state = Locked(State())
    /// How the client is connected, e.g. `unix` or `tcp`.
    package let transport: String
    /// The peer's address as the transport reports it.
    package let peer: String
    /// The connection's subscriptions and where their notifications go.
    package let watch = WatchSession()

    package init(transport: String, peer: String) {
        self.transport = transport
        self.peer = peer
    }

    package func hello(clientName: String?) {
        state.withLock {
            $0.saidHello = true
            $0.clientName = clientName
        }
    }

    /// The name the client gave in `hello`.
    package var clientName: String? { state.withLock { $0.clientName } }
    /// Whether the client said `hello`.
    package var saidHello: Bool { state.withLock { $0.saidHello } }
}
