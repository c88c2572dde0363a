import Foundation
import JarvisCore
import JarvisTransport

/// Answers decoded requests with the hub: the glue between the wire codec and the core.
///
/// Pure apart from the hub's own storage access, so it is tested with byte strings; the
/// transport hands it lines and sends back whatever it returns.
package final class AgentService: Sendable {
    package let hub: JarvisHub
    package let identity: AgentIdentity
    package let maxLineLength: Int
    /// Where set, delete and reveal are recorded, and who else hears of them.
    package let audit: AgentAudit
    /// The TCP endpoint clients may use, reported in `hello`; nil when TCP is off.
    package let tcpEndpoint: Locked<Endpoint?>
    /// Watches the hub's scanners while clients subscribe.
    package let engine: ChangeEngine
    /// Where requests that may wait on storage or another process run, off the readiness loop.
    package let work: WorkPool
    /// How long a request that runs on ``work`` may take before its client is told it timed out.
    package let requestTimeout: Duration
    /// The most output the agent may queue for all its clients together; an item whose value
    /// is surely larger is refused before its answer is made. Nil: no such check.
    package let maxAnswerBytes: Int?

    package init(
        hub: JarvisHub, identity: AgentIdentity, maxLineLength: Int, audit: AgentAudit = AgentAudit(),
        requestTimeout: Duration = .seconds(15), work: WorkPool = WorkPool(), maxAnswerBytes: Int? = nil
    ) {
        self.hub = hub
        self.maxAnswerBytes = maxAnswerBytes
        self.requestTimeout = requestTimeout
        self.work = work
        // A third of the request's time: a watch is answered, its hung scanners aside.
        engine = ChangeEngine(hub: hub, baselineWait: Self.lookupWait(requestTimeout))
        self.identity = identity
        self.maxLineLength = maxLineLength
        self.audit = audit
        tcpEndpoint = Locked(nil)
    }

    /// One answer: a whole line, or one made while the client reads it (a large `list`).
    package enum Answer: Sendable {
        case line([UInt8])
        case stream(any LineProducer)
    }

    /// The answer to one line, or nil when the line was a notification that wants none.
    package func respond(to line: [UInt8], session: AgentSessionState) -> [UInt8]? {
        switch answer(to: line, session: session) {
        case nil: return nil
        case .line(let bytes): return bytes
        case .stream(var producer):
            var bytes: [UInt8] = []
            while !producer.produce(into: &bytes, size: 1 << 16) {}
            return bytes
        }
    }

    /// The answer to one line, streamed when it is a listing; nil for a notification.
    package func answer(to line: [UInt8], session: AgentSessionState) -> Answer? {
        // Nearly every `get` is a flat line: read without a JSON tree, answered without one.
        if session.isAuthenticated, let answer = answerFlatGet(line, session: session) {
            return .line(answer)
        }
        switch decode(line, session: session) {
        case .answered(let answer): return answer
        case .request(let request): return answer(request, session: session)
        }
    }

    /// A line read as a request, or already answered (it was no request, or may not run yet).
    package enum Decoded: Sendable {
        case answered(Answer?)
        case request(RPCRequest)
    }

    /// Reads `line`; answers it at once when it is malformed or may not run before `hello`.
    /// Costs no storage access: the agent's loop thread calls it for every line that is not a
    /// flat `get`, and runs only the requests that may wait elsewhere.
    package func decode(_ line: [UInt8], session: AgentSessionState) -> Decoded {
        let request: RPCRequest
        do {
            request = try RPCRequest.decode(line)
        } catch {
            if !session.isAuthenticated { session.refusedUnauthenticated() }
            return .answered(.line(RPCResponse.failure(id: error.id, error: error.error)))
        }
        if !session.isAuthenticated, request.method != AgentMethod.hello.rawValue {
            session.refusedUnauthenticated()
            guard let id = request.id else { return .answered(nil) }
            return .answered(.line(RPCResponse.failure(id: id, error: Self.unauthenticated)))
        }
        return .request(request)
    }

    /// Whether `request` is answered from memory alone (`ping`, `hello`): the loop thread
    /// answers it itself.
    package func answersAtOnce(_ request: RPCRequest) -> Bool {
        request.method == AgentMethod.ping.rawValue || request.method == AgentMethod.hello.rawValue
    }

    /// The answer to a decoded request that may run (see ``decode(_:session:)``); nil for a
    /// notification.
    package func answer(_ request: RPCRequest, session: AgentSessionState) -> Answer? {
        let answerID = request.id ?? .null
        do {
            if request.method == AgentMethod.list.rawValue, request.id != nil {
                let (pager, params) = try streamedList(request.params)
                // A revealing listing streams too, and audits each chunk's secrets as it is made:
                // exactly what is sent, never the whole container up front. An export is recorded
                // once more, as a whole, when its answer is complete or dropped.
                let export = params.reveal && params.export ? exportAudit(params, session: session) : nil
                let sending: (@Sendable ([PreferenceItem]) -> Void)? =
                    params.reveal
                    ? { @Sendable [self, session] sent in
                        let revealed = recordReveals(sent, session: session)
                        export?.sent(secrets: revealed)
                    } : nil
                return .stream(
                    ListAnswer(
                        id: answerID, pager: pager, storage: RPCError.storage(named: request.params), sending: sending,
                        finished: export?.finish))
            }
            if request.method == AgentMethod.containers.rawValue, request.id != nil,
                try Wire.ContainersParams(params: request.params).scanner == nil
            {
                // Scanner by scanner, so one that hangs costs its own entry alone.
                return .stream(ContainersAnswer(id: answerID, hub: hub))
            }
            let result = try handle(request, session: session)
            guard request.id != nil else { return nil }
            return .line(RPCResponse.success(id: answerID, result: result))
        } catch {
            guard request.id != nil else { return nil }
            return .line(RPCResponse.failure(id: answerID, error: Self.rpcError(error)))
        }
    }

    /// The answer to `line` when it is a flat `get` (see ``Wire/GetParams/flat(_:)``); nil for
    /// any other line, which ``decode(_:session:)`` reads. The session must be authenticated.
    package func answerFlatGet(_ line: [UInt8], session: AgentSessionState) -> [UInt8]? {
        guard let get = Wire.GetParams.flat(line) else { return nil }
        return answerGet(get.params, id: get.id, session: session)
    }

    /// As ``answerFlatGet(_:session:)``, for the thread that must never wait: nil too when the
    /// item is not served from memory (``JarvisHub/getFromMemory(_:checkpoint:)``), and the line
    /// must then run where waiting harms nobody else.
    /// - Parameter checkpoint: whether the change notifications the process hears were read
    ///   after the line arrived (see ``ChangeCheckpoint``).
    package func answerFlatGetFromMemory(_ line: [UInt8], checkpoint: ChangeCheckpoint) -> [UInt8]? {
        guard let get = Wire.GetParams.flat(line) else { return nil }
        return answerGetFromMemory(get.params, id: get.id, checkpoint: checkpoint)
    }

    /// Runs one request.
    package func handle(_ request: RPCRequest, session: AgentSessionState) throws(RPCError) -> JSONValue {
        guard let method = AgentMethod(rawValue: request.method) else {
            throw .methodNotFound(request.method)
        }
        do {
            switch method {
            case .hello: return try hello(request.params, session: session)
            case .ping:
                _ = try WireFields(params: request.params, method: .ping, allowed: [])
                return Wire.PingResult().json
            case .scanners:
                _ = try WireFields(params: request.params, method: .scanners, allowed: [])
                return Wire.ScannersResult(hub.scanners().map(Wire.Scanner.init)).json
            case .containers:
                let params = try Wire.ContainersParams(params: request.params)
                let containers = try hub.containers(scanner: params.scanner)
                return Wire.ContainersResult(containers.map(Wire.Container.init)).json
            case .list: return try list(request.params, session: session)
            case .get: return try get(request.params, session: session)
            case .set: return try set(request.params, session: session)
            case .delete: return try delete(request.params, session: session)
            case .reset: return try reset(request.params, session: session)
            case .history: return try history(request.params)
            case .watch: return try watch(request.params, session: session)
            case .unwatch: return try unwatch(request.params, session: session)
            case .journal: return try journal(request.params)
            case .undo, .redo: return try undo(request.params, redo: method == .redo, session: session)
            case .restore: return try restore(request.params, session: session)
            case .check:
                let params = try Wire.CheckParams(params: request.params)
                let findings = try hub.check(container: params.container.map { GlobPattern($0) })
                return Wire.CheckResult(findings.map(Wire.CheckFinding.init), catalog: !hub.configuration.catalog.isEmpty).json
            }
        } catch {
            throw Self.rpcError(error)
        }
    }

    /// The wire error for anything a method threw.
    static func rpcError(_ error: any Error) -> RPCError {
        if let error = error as? RPCError { return error }
        if let error = error as? JarvisError { return RPCError(error) }
        return .internalError(String(describing: error))
    }

    private func hello(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params: Wire.HelloParams
        do {
            params = try Wire.HelloParams(params: raw)
            if let version = params.protocolVersion {
                guard let major = ProtocolVersion.major(of: version) else {
                    throw RPCError.invalidParams("protocolVersion must look like 1.0")
                }
                if major != ProtocolVersion.major(of: ProtocolVersion.current) {
                    throw RPCError.invalidRequest(
                        "this agent speaks protocol \(ProtocolVersion.current) and the client \(version); use a jarvis of the same major version"
                    )
                }
            }
        } catch {
            // Any failed hello is a failed attempt, or a client could probe for ever.
            session.failedHello()
            throw error
        }
        try authenticate(session, token: params.token)
        session.hello(clientName: params.client)
        let configuration = hub.configuration
        let capabilities = Wire.Capabilities(
            editing: configuration.editingEnabled, reveal: configuration.revealEnabled,
            production: configuration.isProduction, maxLineLength: maxLineLength, tcp: tcpEndpoint.current != nil,
            auth: session.requiredToken == nil ? .none : .token, requestTimeout: requestTimeout)
        return Wire.HelloResult(
            agent: identity.name, pid: Int64(identity.pid), platform: identity.platform, capabilities: capabilities,
            scanners: hub.scanners().map(\.id)
        ).json
    }

    private func list(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let (query, params) = try listQuery(raw)
        let export = query.reveal && params.export ? exportAudit(params, session: session) : nil
        defer { export?.finish() }
        // A revealing listing is answered as one page and audits exactly the items it sends.
        return page(try pager(try hub.listStream(query), params: params)) { sent in
            guard query.reveal else { return }
            let revealed = recordReveals(sent, session: session)
            export?.sent(secrets: revealed)
        }
    }

    /// A listing to stream, and its params (whether it reveals secrets, whose sending is
    /// audited, and whether it is an export).
    private func streamedList(_ raw: JSONObject) throws -> (ListPager, Wire.ListParams) {
        let (query, params) = try listQuery(raw)
        return (try pager(try hub.listStream(query), params: params), params)
    }

    private func listQuery(_ raw: JSONObject) throws -> (ListQuery, Wire.ListParams) {
        let params = try Wire.ListParams(params: raw)
        let query = ListQuery(
            scanner: params.scanner, container: params.container.map { GlobPattern($0) },
            key: params.key.map { GlobPattern($0) }, reveal: params.reveal, undeclared: params.undeclared)
        if query.reveal, !hub.configuration.revealEnabled {
            throw JarvisHub.revealRefused(hub.configuration)
        }
        return (query, params)
    }

    /// How long a request waits for one scanner's quick answer (a watch's first read, which
    /// scanner holds a container) before it goes on without it: a third of the request
    /// timeout, at most 5 s, so the request still answers in time.
    static func lookupWait(_ requestTimeout: Duration) -> Duration {
        min(.seconds(5), requestTimeout / 3)
    }

    /// The address of a request (without `scanner`, the container must belong to exactly one)
    /// and, when finding its scanner meant looking the container up, the container as found
    /// (a write passes it on rather than asking again). `creating` is true for a `set` of a
    /// whole key, which may create the container (``JarvisHub/owner(ofContainer:creating:writing:wait:)``);
    /// `writing` false for a read, which takes the one container found even when a scanner
    /// did not answer in time. Each scanner is waited for as a watch's first reads are.
    func located(_ place: Wire.Place, creating: Bool = false, writing: Bool = true) throws -> (
        address: PreferenceAddress, container: ContainerInfo?
    ) {
        if let scanner = place.scanner {
            return (PreferenceAddress(scanner: scanner, container: place.container, key: place.key), nil)
        }
        let owner = try hub.owner(
            ofContainer: place.container, creating: creating, writing: writing, wait: Self.lookupWait(requestTimeout))
        return (PreferenceAddress(scanner: owner.scanner, container: place.container, key: place.key), owner.container)
    }
}
