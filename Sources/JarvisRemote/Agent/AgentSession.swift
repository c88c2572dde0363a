import Dispatch
import JarvisCore
import JarvisTransport

/// One client connection of the agent: hands each line to the service and sends the answer.
///
/// The server's loop thread answers only what costs no storage access: `ping`, `hello`, and a
/// flat `get` whose scanner holds the key in memory and knows it is current
/// (``PreferenceScanner/readFromMemory(key:in:checkpoint:)``; nearly every `get` of a watched defaults
/// folder or an in-process scanner). Every other request, which may wait on storage or another
/// process (a keyring that waits for an unlock, `simctl`, a write's `fsync`, the first parse of
/// a large file), runs on the agent's ``WorkPool`` through this connection's ``WorkLane``, so
/// one client's slow storage never delays another client's answer. Answers keep the order of
/// the requests: once a request waits in the lane, every later one of this connection goes
/// there too.
final class AgentSession: LineSession {
    private let service: AgentService
    private let state: AgentSessionState
    private let lane: WorkLane
    private let deadlines: RequestDeadlines

    /// - Parameter token: what the client must present in `hello`; nil for owner-only Unix sockets.
    init(service: AgentService, connection: LineConnection, token: AgentToken? = nil) {
        self.service = service
        lane = service.work.lane()
        deadlines = RequestDeadlines(timeout: service.requestTimeout)
        switch connection.endpoint {
        case .unix:
            state = AgentSessionState(transport: .unix, peer: connection.peer)
        case .tcp:
            // Fail closed: a TCP client always needs a token, even if none was configured.
            state = AgentSessionState(transport: .tcp, peer: connection.peer, requiredToken: token ?? .random())
        }
        state.watch.attach { [weak connection] line in connection?.send(line) }
    }

    func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
        let idle = !lane.isBusy
        // Only another request can end the authentication (failed `hello`s), and it is
        // answered before this one: while the lane is idle, the standing read here is current.
        if idle, state.isAuthenticated,
            let answer = service.answerFlatGetFromMemory(line, checkpoint: checkpoint)
        {
            connection.send(answer, refusal: Self.refusal(for: Self.id(of: line)))
            return
        }
        switch service.decode(line, session: state) {
        case .answered(let answer):
            guard idle else { return submit(.answered(answer), on: connection) }
            send(answer, id: nil, on: connection)
        case .request(let request):
            guard idle, service.answersAtOnce(request) else { return submit(.request(request), on: connection) }
            send(service.answer(request, session: state), id: request.id, on: connection)
        }
    }

    /// What a connection queues instead of an answer larger than the output it may still
    /// queue: an error naming the size and the limit.
    private static func refusal(for id: @autoclosure @escaping () -> JSONValue?) -> (Int, Int) -> [UInt8] {
        { size, limit in RPCResponse.failure(id: id() ?? .null, error: .answerTooLarge(size: size, limit: limit)) }
    }

    /// The id of the request in `line`; nil for a notification or a line that is no request.
    private static func id(of line: [UInt8]) -> JSONValue? {
        do {
            return try RPCRequest.decode(line).id
        } catch {
            return nil
        }
    }

    /// Runs `decoded` in the connection's lane, after the requests before it; its client is
    /// told it timed out if it has not been answered within the service's request timeout.
    private func submit(_ decoded: AgentService.Decoded, on connection: LineConnection) {
        let service = service
        let state = state
        let deadlines = deadlines
        // Only a request with an id is answered, so only it has a deadline.
        let ticket: UInt64?
        if case .request(let request) = decoded, request.id != nil { ticket = deadlines.start() } else { ticket = nil }
        // The storage a request may wait on is its scanner's: one stuck storage holds at most
        // the pool's group limit of threads. A request that names none may touch every scanner.
        var group: String?
        if case .request(let request) = decoded { group = request.params["scanner"]?.stringValue }
        let storage = group
        let number = lane.submit(group: group) { [weak connection, weak self] in
            // Timed out before it started: its client has its answer, and it never runs.
            guard let connection, let self, ticket.map(deadlines.isOpen) ?? true else { return }
            let answer: AgentService.Answer?
            switch decoded {
            case .answered(let ready): answer = ready
            case .request(let request): answer = service.answer(request, session: state)
            }
            guard ticket.map(deadlines.answer) ?? true else { return }
            if case .request(let request) = decoded {
                send(answer, id: request.id, group: storage, on: connection)
            } else {
                send(answer, id: nil, on: connection)
            }
        }
        guard case .request(let request) = decoded, let id = request.id, let ticket else { return }
        let timeout = service.requestTimeout
        let lane = lane
        let place = RPCError.storage(named: request.params)
        deadlines.arm(ticket) { [weak connection] in
            // Not started: dropped. Running: it keeps its thread, and this connection's later
            // requests go on without it (or wait for it, when another is left behind already).
            lane.abandon(number)
            connection?.send(RPCResponse.failure(id: id, error: .timedOut(after: timeout, storage: place)))
        }
    }

    /// Sends an answer, then acts on the session's standing and on what waited for the reply.
    ///
    /// - Parameter id: the request's id, for the error sent when the answer is larger than the
    ///   connection may still queue; nil for short answers (errors, refusals).
    ///   - group: the storage a streamed answer's steps may wait on (see ``submit(_:on:)``).
    private func send(
        _ answer: AgentService.Answer?, id: JSONValue?, group: String? = nil, on connection: LineConnection
    ) {
        switch answer {
        case .line(let bytes)?: connection.send(bytes, refusal: id.map { id in Self.refusal(for: id) })
        case .stream(let producer)?:
            connection.send(
                producing: producer, on: lane, group: group, stepTimeout: service.requestTimeout)
        case nil: break
        }
        let standing = state.standing
        if standing.isAuthenticated, !connection.isAuthenticated { connection.authenticated() }
        state.watch.replied()
        // Too many unauthenticated requests: flush the last refusal and hang up.
        if standing.mustClose { connection.close() }
    }

    func lineTooLong(on connection: LineConnection) -> [UInt8]? {
        RPCResponse.failure(id: .null, error: .lineTooLong(maxLineLength: service.maxLineLength))
    }

    /// How many requests of one connection may wait in its lane before the loop stops reading
    /// that connection: a client that pipelines 50,000 requests makes the agent hold this many,
    /// not all of them.
    static let maxWaitingRequests = 256

    func acceptsInput(on connection: LineConnection) -> Bool {
        !lane.isBacklogged(limit: Self.maxWaitingRequests) { [weak connection] in connection?.resumeInput() }
    }

    func closed(_ connection: LineConnection) {
        state.watch.end()
    }
}
