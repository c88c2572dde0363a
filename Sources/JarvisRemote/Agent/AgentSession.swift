import JarvisCore

/// One client connection of the agent: hands each line to the service and sends the answer.
final class AgentSession: LineSession {
    private let service: AgentService
    private let state: AgentSessionState

    init(service: AgentService, connection: LineConnection) {
        self.service = service
        let transport: String
        switch connection.endpoint {
        case .unix: transport = "unix"
        case .tcp: transport = "tcp"
        }
        state = AgentSessionState(transport: transport, peer: connection.peer)
        state.watch.attach { [weak connection] line in connection?.send(line) }
    }

    func received(line: [UInt8], on connection: LineConnection) {
        if let answer = service.respond(to: line, session: state) {
            connection.send(answer)
        }
        state.watch.replied()
    }

    func lineTooLong(on connection: LineConnection) -> [UInt8]? {
        let error = RPCError(
            code: -32006,
            message: "request line longer than \(service.maxLineLength) bytes; the connection is closed",
            name: JarvisError.Code.tooLarge.rawValue)
        return RPCResponse.failure(id: .null, error: error)
    }

    func closed(_ connection: LineConnection) {
        state.watch.end()
    }
}
