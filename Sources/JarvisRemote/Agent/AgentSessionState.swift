import JarvisCore

/// What the agent remembers about one connection: whether it said hello, who it is, and
/// whether it proved it knows the token (TCP only).
package final class AgentSessionState: Sendable {
    /// Where the connection stands with its token.
    private enum Access {
        /// Only `hello` may run; `failures` wrong or missing tokens so far.
        case awaitingToken(failures: Int)
        /// Every request may run; `failures` wrong tokens sent since (a second `hello`).
        case authenticated(failures: Int)
        /// Too many failures: the connection closes once the current reply is out.
        case closing
    }

    private struct State {
        var clientName: String?
        var access: Access
    }

    /// Wrong or missing tokens tolerated before the connection is closed.
    package static let maxAuthFailures = 3

    private let state: Locked<State>
    /// How the client is connected, e.g. `unix` or `tcp`.
    package let transport: AuditRecord.Transport
    /// The peer's address as the transport reports it.
    package let peer: String
    /// The token this connection must present, or nil when the transport needs none (Unix
    /// sockets are owner-only, so the file system already authenticated the peer).
    package let requiredToken: AgentToken?
    /// The connection's subscriptions and where their notifications go.
    package let watch = WatchSession()
    /// The changes of several writes this connection named (`change` on `set` and `delete`).
    package let changes = SessionChanges()

    package init(transport: AuditRecord.Transport, peer: String, requiredToken: AgentToken? = nil) {
        self.transport = transport
        self.peer = peer
        self.requiredToken = requiredToken
        state = Locked(
            State(access: requiredToken == nil ? .authenticated(failures: 0) : .awaitingToken(failures: 0)))
    }

    /// Remembers the name the client gave in `hello`, cleaned (``ClientName/cleaned(_:)``)
    /// before anything records or shows it.
    package func hello(clientName: String?) {
        let name = ClientName.cleaned(clientName)
        state.withLock {
            $0.clientName = name
        }
    }

    /// The name the client gave in `hello`, as ``ClientName/cleaned(_:)`` keeps it.
    package var clientName: String? { state.withLock { $0.clientName } }
    /// Whether requests other than `hello` may run.
    package var isAuthenticated: Bool {
        // Without a token to present (an owner-only Unix socket) nothing ever takes it away.
        requiredToken == nil || standing.isAuthenticated
    }
    /// Whether requests other than `hello` may run, and whether the session must close the
    /// connection (after too many failed attempts), under one lock.
    package var standing: (isAuthenticated: Bool, mustClose: Bool) {
        state.withLock { state in
            switch state.access {
            case .authenticated: (true, false)
            case .closing: (false, true)
            default: (false, false)
            }
        }
    }

    /// Checks a token from `hello`; returns whether the connection is now authenticated.
    package func authenticate(token: String?) -> Bool {
        guard let requiredToken else { return true }
        let good = token.map(requiredToken.matches) ?? false
        state.withLock { state in
            if good {
                if case .awaitingToken = state.access { state.access = .authenticated(failures: 0) }
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
        switch state.access {
        case .awaitingToken(let failures):
            state.access = failures + 1 >= Self.maxAuthFailures ? .closing : .awaitingToken(failures: failures + 1)
        case .authenticated(let failures):
            state.access = failures + 1 >= Self.maxAuthFailures ? .closing : .authenticated(failures: failures + 1)
        case .closing:
            break
        }
    }
}
