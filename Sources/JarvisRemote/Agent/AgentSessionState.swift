import JarvisCore

/// What the agent remembers about one connection: whether it said hello, who it is, and
/// whether it proved it knows the token (TCP only).
package final class AgentSessionState: Sendable {
    private struct State {
        var clientName: String?
        var authenticated: Bool
        var failures = 0
        var mustClose = false
    }

    /// Wrong or missing tokens tolerated before the connection is closed.
    package static let maxAuthFailures = 3

    private let state: Locked<State>
    /// How the client is connected, e.g. `unix` or `tcp`.
    package let transport: String
    /// The peer's address as the transport reports it.
    package let peer: String
    /// The token this connection must present, or nil when the transport needs none (Unix
    /// sockets are owner-only, so the file system already authenticated the peer).
    package let requiredToken: AgentToken?
    /// The connection's subscriptions and where their notifications go.
    package let watch = WatchSession()

    package init(transport: String, peer: String, requiredToken: AgentToken? = nil) {
        self.transport = transport
        self.peer = peer
        self.requiredToken = requiredToken
        state = Locked(State(authenticated: requiredToken == nil))
    }

    package func hello(clientName: String?) {
        state.withLock {
            $0.clientName = clientName
        }
    }

    /// The name the client gave in `hello`.
    package var clientName: String? { state.withLock { $0.clientName } }
    /// Whether requests other than `hello` may run.
    package var isAuthenticated: Bool { state.withLock { $0.authenticated } }
    /// Set after too many failed attempts: the session closes the connection.
    package var mustClose: Bool { state.withLock { $0.mustClose } }

    /// Checks a token from `hello`; returns whether the connection is now authenticated.
    package func authenticate(token: String?) -> Bool {
        guard let requiredToken else { return true }
        let good = token.map(requiredToken.matches) ?? false
        state.withLock { state in
            if good {
                state.authenticated = true
            } else {
                registerFailure(&state)
            }
        }
        return good
    }

    /// Counts a `hello` refused before its token was checked (another major version, an
    /// unknown or malformed param) on a transport that needs a token.
    package func failedHello() {
        guard requiredToken != nil else { return }
        state.withLock { registerFailure(&$0) }
    }

    /// Counts a request refused for lack of authentication.
    package func refusedUnauthenticated() {
        state.withLock { registerFailure(&$0) }
    }

    /// The audit trail's view of this client.
    package var auditClient: AuditRecord.Client {
        AuditRecord.Client(transport: transport, peer: peer, name: clientName)
    }

    private func registerFailure(_ state: inout State) {
        state.failures += 1
        if state.failures >= Self.maxAuthFailures { state.mustClose = true }
    }
}
