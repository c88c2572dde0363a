import JarvisCore
import JarvisTransport

/// One client connection of the agent: hands each line to the service and sends the answer.
final class AgentSession: LineSession {
    private let service: AgentService
    private let state: AgentSessionState
    /// Whether the connection was told it is authenticated (which it never forgets), so that
    /// later requests skip the lock that telling it again takes. Read and written only on the
    /// server's loop thread, which calls ``received(line:on:)``.
    @exclusivity(unchecked) nonisolated(unsafe) private var toldAuthenticated = false
    /// The strings of the connection's last requests, handed out again to requests that hold
    /// the same ones. Only the loop thread touches it, as `toldAuthenticated`.
    @exclusivity(unchecked) nonisolated(unsafe) private var recentStrings = FlatRequest.RecentStrings()

    /// - Parameter token: what the client must present in `hello`; nil for owner-only Unix sockets.
    init(service: AgentService, connection: LineConnection, token: AgentToken? = nil) {
        self.service = service
        switch connection.endpoint {
        case .unix:
            state = AgentSessionState(transport: .unix, peer: connection.peer)
        case .tcp:
            // Fail closed: a TCP client always needs a token, even if none was configured.
            state = AgentSessionState(transport: .tcp, peer: connection.peer, requiredToken: token ?? .random())
        }
        state.watch.attach { [weak connection] line in connection?.send(line) }
    }

    func received(line: [UInt8], on connection: LineConnection) {
        // Once authenticated, a flat `get` (nearly every request) changes neither the session's
        // standing nor what waits for a reply: answered without asking either (three locks).
        // Only another request can end the authentication (failed `hello`s), and the close
        // it asks for stops every later line before it is handed on.
        if toldAuthenticated, let answer = service.answerFlatGet(line, session: state, recent: &recentStrings) {
            connection.send(answer)
            return
        }
        switch service.answer(to: line, session: state, recent: &recentStrings, flatTried: toldAuthenticated) {
        case .line(let bytes)?: connection.send(bytes)
        case .stream(let producer)?: connection.send(producing: producer)
        case nil: break
        }
        let standing = state.standing
        if standing.isAuthenticated, !toldAuthenticated {
            connection.authenticated()
            toldAuthenticated = true
        }
        state.watch.replied()
        // Too many unauthenticated requests: flush the last refusal and hang up.
        if standing.mustClose { connection.close() }
    }

    func lineTooLong(on connection: LineConnection) -> [UInt8]? {
        RPCResponse.failure(id: .null, error: .lineTooLong(maxLineLength: service.maxLineLength))
    }

    func closed(_ connection: LineConnection) {
        state.watch.end()
    }
}
