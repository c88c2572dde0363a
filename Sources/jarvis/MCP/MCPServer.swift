import Foundation
import JarvisCore
import JarvisRemote

/// The MCP session on standard input and output: newline-delimited JSON-RPC 2.0, the
/// `initialize` handshake, tools, resources and subscriptions, bridged to Jarvis agents.
///
/// Requests are answered one at a time, in order, on the calling thread; a monitor thread
/// started by `initialize` watches the agents (``MCPAgentBridge/refresh()``, once a second)
/// and tells the client when the tools on offer or the resources change. Every line on
/// standard output is a protocol message; logs go to standard error.
final class MCPServer: Sendable {
    /// The revisions spoken through the `initialize` handshake, oldest first; the last is
    /// offered to a client asking for one this server does not know.
    static let supportedVersions = ["2025-06-18", "2025-11-25"]
    /// The stateless revisions (no handshake: `server/discover`, the version and client in each
    /// request's `_meta`, `resultType` on results, `subscriptions/listen`).
    static let modernVersions = ["2026-07-28"]
    /// The most `subscriptions/listen` streams a session keeps open; one more is refused.
    static let maxListens = 16
    /// The most open streams that carry one resource; a further one is not honored for it.
    static let maxListensPerResource = 4
    /// The most resources one stream names that are looked at; the rest are not honored.
    static let maxResourcesPerListen = 256
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let clientInfoKey = "io.modelcontextprotocol/clientInfo"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
    static let subscriptionKey = "io.modelcontextprotocol/subscriptionId"
    /// The longest message accepted, in bytes; a longer line is answered with an error and
    /// dropped (agents take 1 MiB per request anyway).
    static let lineLimit = 4 << 20
    /// How often the monitor looks at the agents.
    static let monitorInterval: TimeInterval = 1

    let output = MCPOutput()
    let bridge: MCPAgentBridge
    let allowReveal: Bool
    private let runner: MCPToolRunner
    private let resources: MCPResources
    private let subscriptions: MCPSubscriptions
    private let state = Locked(State())

    private struct State {
        /// The negotiated revision; nil until `initialize`.
        var version: String?
        var monitoring = false
        /// What the client was last told, to notice a change.
        var offersWriting: Bool?
        /// What the resource list depends on: the agents served and, once the client has
        /// listed resources, their containers.
        var resourceKeys: [String]?
        var listedResources = false
        /// Open `subscriptions/listen` streams (2026-07-28), by their request id's text.
        var listens: [String: Listen] = [:]
        /// How many listen streams were opened, to order them.
        var opened = 0
        /// Resources subscribed with `resources/subscribe` (the 2025 revisions).
        var subscribed: Set<MCPResourceURI> = []
    }

    /// One `subscriptions/listen` stream and what it agreed to carry.
    private struct Listen {
        var id: JSONValue
        /// When it was opened among the session's streams: a change is told on the oldest.
        var order: Int
        var tools: Bool
        var resources: Bool
        var uris: Set<MCPResourceURI>
    }

    init(bridge: MCPAgentBridge, allowReveal: Bool) {
        self.bridge = bridge
        self.allowReveal = allowReveal
        runner = MCPToolRunner(bridge: bridge, allowReveal: allowReveal)
        resources = MCPResources(bridge: bridge)
        subscriptions = MCPSubscriptions(output: output, bridge: bridge)
        subscriptions.updated.withLock { $0 = { [weak self] uri in self?.resourceUpdated(uri) } }
    }

    /// Serves until the client closes standard input.
    func run() -> Never {
        var input = MCPInput(limit: Self.lineLimit)
        while true {
            switch input.next() {
            case .end:
                exit(0)
            case .tooLong(let overflow):
                // The agent's answer to a line over its limit, under the id the line's start shows.
                output.answer(
                    RPCRequest.id(inPrefix: overflow.prefix) ?? .null,
                    error: .lineTooLong(maxLineLength: Self.lineLimit))
            case .line(let line):
                handle(line)
            }
        }
    }

    /// Answers one line, read with the agent's decoder under MCP's rules.
    func handle(_ line: [UInt8]) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let request: RPCRequest
        do {
            guard case .request(let decoded) = try RPCMessage.decode(line, rules: .mcp) else {
                return  // an answer: this server sends no requests, so it waits on none
            }
            request = decoded
        } catch {
            output.answer(error.id, error: error.error)
            return
        }
        let (method, params) = (request.method, request.params)
        guard let id = request.id else {
            // A notification: `notifications/initialized` needs nothing; a cancel ends a listen
            // stream (other requests are answered in order, so their cancel comes after the answer).
            if method == "notifications/cancelled", let requestID = params["requestId"] {
                endListen(JSONWriter.string(requestID))
            }
            return
        }
        let modern = Self.modernVersion(params)
        if method == "subscriptions/listen" {
            // A long-lived request: acknowledged by a notification, answered only when it ends.
            do {
                try listen(id, params, modern: modern)
            } catch {
                output.answer(id, error: error)
            }
            return
        }
        do {
            let result = try respond(method, params, modern: modern)
            output.answer(id, result: modern == nil ? result : Self.stamped(result, method: method))
        } catch {
            output.answer(id, error: error)
        }
    }

    private func respond(_ method: String, _ params: JSONObject, modern: String?) throws(RPCError) -> JSONValue {
        switch method {
        case "initialize": return try initialize(params)
        case "server/discover": return try discover(params, modern: modern)
        case "ping": return [:]
        default: break
        }
        guard Self.methods.contains(method) else {
            throw .methodNotFound(
                method, among: ["initialize", "server/discover", "ping", "subscriptions/listen"] + Self.methods)
        }
        let version: String
        if let modern {
            try checkModern(modern, params)
            version = modern
            if method.hasPrefix("resources/") && method.hasSuffix("subscribe") {
                throw .methodNotFound(
                    message:
                        "\(method) is gone from revision \(modern); open a subscriptions/listen stream with resourceSubscriptions instead"
                )
            }
        } else if let negotiated = state.current.version {
            version = negotiated
        } else {
            throw .invalidRequest(
                "send initialize first (revisions \(Self.supportedVersions.joined(separator: ", "))), or name revision \(Self.modernVersions.joined(separator: ", ")) in each request's _meta"
            )
        }
        switch method {
        case "tools/list": return toolsList()
        case "tools/call": return try toolsCall(params, version: version)
        case "resources/list": return resourcesList()
        case "resources/templates/list": return resources.templates()
        case "resources/read": return try resources.read(try Self.uri(params))
        case "resources/subscribe":
            let (uri, agent) = try resources.resolve(try Self.uri(params))
            do {
                try subscriptions.subscribe(uri, agent: agent)
            } catch {
                throw .internalError("cannot watch \(uri): \(error.message)")
            }
            state.withLock { _ = $0.subscribed.insert(uri) }
            return [:]
        case "resources/unsubscribe":
            guard let uri = MCPResourceURI(parsing: try Self.uri(params)) else {
                throw .invalidParams("that is not a Jarvis resource URI")
            }
            state.withLock { _ = $0.subscribed.remove(uri) }
            releaseIfUnused(uri)
            return [:]
        default:
            throw .methodNotFound(method, among: Self.methods)
        }
    }

    /// The methods served once initialized.
    static let methods = [
        "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read",
        "resources/subscribe", "resources/unsubscribe",
    ]

    // MARK: - Revision 2026-07-28

    /// The stateless revision a request names in its `_meta`, if any.
    private static func modernVersion(_ params: JSONObject) -> String? {
        params["_meta"]?[versionKey]?.stringValue
    }

    /// A request of the stateless revision: a version this server speaks; the first one also
    /// names the client for the agents' audit trails and starts watching the agents.
    private func checkModern(_ version: String, _ params: JSONObject) throws(RPCError) {
        guard Self.modernVersions.contains(version) else {
            throw .unsupportedVersion(
                "this server does not speak revision \(version.prefix(40)); it speaks \((Self.supportedVersions + Self.modernVersions).joined(separator: ", "))",
                supported: Self.supportedVersions + Self.modernVersions)
        }
        let name = params["_meta"]?[Self.clientInfoKey]?["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        startMonitor(clientName: name ?? "mcp-client")
    }

    /// `server/discover`: what this server speaks and offers, asked before any other request.
    private func discover(_ params: JSONObject, modern: String?) throws(RPCError) -> JSONValue {
        if let modern { try checkModern(modern, params) }
        return [
            "supportedVersions": .array((Self.supportedVersions + Self.modernVersions).map(JSONValue.string)),
            "capabilities": [
                "tools": ["listChanged": true],
                "resources": ["subscribe": true, "listChanged": true],
            ],
            "instructions": .string(Self.instructions),
        ]
    }

    /// The results a client may cache: listings and reads, which then say for how long.
    static let cacheable: Set<String> = [
        "server/discover", "tools/list", "resources/list", "resources/templates/list", "resources/read",
    ]

    /// A result of the stateless revision: `resultType`, the server named in `_meta`, and for
    /// what may be cached, that it is this client's own and stale at once (values change live).
    private static func stamped(_ result: JSONValue, method: String) -> JSONValue {
        guard case .object(var object) = result else { return result }
        object["resultType"] = "complete"
        if cacheable.contains(method) {
            object["cacheScope"] = "private"
            object["ttlMs"] = 0
        }
        var meta = object["_meta"]?.objectValue ?? [:]
        meta[serverInfoKey] = ["name": "jarvis", "version": .string(ProtocolInfo.toolVersion)]
        object["_meta"] = .object(meta)
        return .object(object)
    }

    /// `subscriptions/listen`: opens a stream carrying the notifications the client opted in to
    /// (tool and resource list changes, updates of resources it names), each stamped with the
    /// stream's id. Acknowledged at once with what it will carry.
    private func listen(_ id: JSONValue, _ params: JSONObject, modern: String?) throws(RPCError) {
        guard let modern else {
            throw .invalidRequest(
                "subscriptions/listen belongs to revision \(Self.modernVersions.joined()); name it in _meta")
        }
        try checkModern(modern, params)
        let key = JSONWriter.string(id)
        let (open, carrying) = state.withLock { state in
            (state.listens.count - (state.listens[key] == nil ? 0 : 1), state.listens.values.map(\.uris))
        }
        guard open < Self.maxListens else {
            throw .invalidRequest(
                "this session already has \(Self.maxListens) subscriptions/listen streams open; cancel one (notifications/cancelled with its request id) or name more resources on one stream"
            )
        }
        let filter = params["notifications"]?.objectValue ?? [:]
        var uris: Set<MCPResourceURI> = []
        let named = filter["resourceSubscriptions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for text in named.prefix(Self.maxResourcesPerListen) {
            // Only resources that exist and can be watched are honored, on a few streams at
            // most; the acknowledgement says which.
            guard let (uri, agent) = try? resources.resolve(text),
                carrying.filter({ $0.contains(uri) }).count < Self.maxListensPerResource,
                (try? subscriptions.subscribe(uri, agent: agent)) != nil
            else { continue }
            uris.insert(uri)
        }
        let stream = state.withLock { state -> Listen in
            state.opened += 1
            let made = Listen(
                id: id, order: state.opened, tools: filter["toolsListChanged"] == .bool(true),
                resources: filter["resourcesListChanged"] == .bool(true), uris: uris)
            state.listens[key] = made
            return made
        }
        var honored = JSONObject()
        if stream.tools { honored["toolsListChanged"] = true }
        if stream.resources { honored["resourcesListChanged"] = true }
        if !uris.isEmpty {
            honored["resourceSubscriptions"] = .array(uris.map { .string($0.description) }.sorted { "\($0)" < "\($1)" })
        }
        output.notify(
            "notifications/subscriptions/acknowledged",
            ["notifications": .object(honored), "_meta": [Self.subscriptionKey: id]])
    }

    /// Ends a listen stream the client cancelled, and the watches only it needed.
    private func endListen(_ key: String) {
        guard let ended = state.withLock({ $0.listens.removeValue(forKey: key) }) else { return }
        for uri in ended.uris { releaseIfUnused(uri) }
    }

    /// Stops watching a resource no subscription of either revision still wants.
    private func releaseIfUnused(_ uri: MCPResourceURI) {
        let used = state.withLock { state in
            state.subscribed.contains(uri) || state.listens.values.contains { $0.uris.contains(uri) }
        }
        if !used { subscriptions.unsubscribe(uri) }
    }

    /// A subscribed resource changed: told once to the session, whatever the number of its
    /// subscriptions: plainly to a 2025 subscriber, else on the oldest listen stream that
    /// asked for it.
    private func resourceUpdated(_ uri: MCPResourceURI) {
        let (plain, oldest) = state.withLock { state in
            (
                state.subscribed.contains(uri),
                state.listens.values.filter { $0.uris.contains(uri) }.min { $0.order < $1.order }?.id
            )
        }
        if plain {
            output.notify("notifications/resources/updated", ["uri": .string(uri.description)])
            return
        }
        if let id = oldest {
            output.notify(
                "notifications/resources/updated",
                ["uri": .string(uri.description), "_meta": [Self.subscriptionKey: id]])
        }
    }

    /// A list change: told plainly after a handshake, and on each listen stream that asked.
    private func listChanged(_ method: String, tools: Bool) {
        let (handshake, streams) = state.withLock { state in
            (state.version != nil, state.listens.values.filter { tools ? $0.tools : $0.resources }.map(\.id))
        }
        if handshake { output.notify(method) }
        for id in streams { output.notify(method, ["_meta": [Self.subscriptionKey: id]]) }
    }

    private func startMonitor(clientName: String) {
        let start = state.withLock { state -> Bool in
            if state.version == nil && !state.monitoring { bridge.setClientName(clientName) }
            defer { state.monitoring = true }
            return !state.monitoring
        }
        if start { Thread.detachNewThread { [self] in self.monitor() } }
    }

    // MARK: - Revisions 2025-06-18 and 2025-11-25

    private func initialize(_ params: JSONObject) throws(RPCError) -> JSONValue {
        guard let requested = params["protocolVersion"]?.stringValue else {
            throw .invalidParams("initialize needs protocolVersion (a string such as \"2025-11-25\")")
        }
        let version = Self.supportedVersions.contains(requested) ? requested : Self.supportedVersions.last ?? requested
        let name = params["clientInfo"]?["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "mcp-client"
        let startMonitor = state.withLock { state -> Bool in
            if state.version == nil { bridge.setClientName(name) }
            state.version = version
            defer { state.monitoring = true }
            return !state.monitoring
        }
        if startMonitor { Thread.detachNewThread { [self] in self.monitor() } }
        return [
            "protocolVersion": .string(version),
            "capabilities": [
                "tools": ["listChanged": true],
                "resources": ["subscribe": true, "listChanged": true],
            ],
            "serverInfo": ["name": "jarvis", "title": "Jarvis", "version": .string(ProtocolInfo.toolVersion)],
            "instructions": .string(Self.instructions),
        ]
    }

    static let instructions = """
        Jarvis reads and edits the preferences of running programs (UserDefaults suites, JSON config files, secrets) through their Jarvis agent. \
        Start with list_agents, then list_preferences; values use the Jarvis wire encoding (dates as {"$date":…}, data as {"$data":…}). \
        Secrets stay masked. Writing tools appear only while an agent allows editing; every change is recorded in the agent's audit trail (preference_history) under this client's name.
        """

    private func toolsList() -> JSONValue {
        let writing = bridge.refresh().contains { $0.allowsEditing }
        state.withLock { $0.offersWriting = writing }
        let tools = MCPToolCatalog.tools(allowReveal: allowReveal).filter { writing || !$0.writes }
        return ["tools": .array(tools.map(\.json))]
    }

    /// The resources, which also become what later changes are told against.
    private func resourcesList() -> JSONValue {
        let agents = bridge.refresh()
        let entries = resources.entries(of: agents)
        let keys = Self.resourceKeys(agents, entries: entries)
        state.withLock { state in
            state.listedResources = true
            state.resourceKeys = keys
        }
        return ["resources": .array(entries)]
    }

    /// What the resource list depends on: the agents and the listed containers.
    private static func resourceKeys(_ agents: [MCPAgent], entries: [JSONValue]) -> [String] {
        agents.map { "\(MCPAgentBridge.label(of: $0, among: agents)) \($0.key)" }.sorted()
            + entries.compactMap { $0["uri"]?.stringValue }.sorted()
    }

    private func toolsCall(_ params: JSONObject, version: String) throws(RPCError) -> JSONValue {
        guard let name = params["name"]?.stringValue else { throw .invalidParams("tools/call needs name (a string)") }
        let catalogue = MCPToolCatalog.tools(allowReveal: allowReveal)
        guard let tool = catalogue.first(where: { $0.name == name }) else {
            throw .invalidParams(
                "unknown tool '\(name.prefix(100))'; the tools are \(catalogue.map(\.name).joined(separator: ", "))")
        }
        var arguments = JSONObject()
        switch params["arguments"] {
        case nil, .null?: break
        case .object(let given)?: arguments = given
        default: throw .invalidParams("tools/call arguments must be an object")
        }
        if arguments["reveal"] != nil && !allowReveal {
            return MCPToolResult.failure(
                "unauthorized: revealing secrets is off in this MCP server; it must be started with jarvis mcp --allow-reveal (and the agent must allow reveal)"
            ).json
        }
        if let problem = MCPSchemaValidator.problem(.object(arguments), against: tool.input) {
            // From 2025-11-25 on, invalid arguments are a tool error the model can read and
            // correct; 2025-06-18 calls them a protocol error.
            guard version >= "2025-11-25" else { throw .invalidParams("invalid arguments for \(name): \(problem)") }
            return MCPToolResult.failure("invalid arguments for \(name): \(problem)").json
        }
        return runner.run(tool, arguments).json
    }

    private static func uri(_ params: JSONObject) throws(RPCError) -> String {
        guard let uri = params["uri"]?.stringValue else { throw .invalidParams("the request needs uri (a string)") }
        return uri
    }

    /// Once a second: the agents served, the tools on offer, the resources, the watches.
    private func monitor() {
        while true {
            Thread.sleep(forTimeInterval: Self.monitorInterval)
            let agents = bridge.refresh()
            let writing = agents.contains { $0.allowsEditing }
            let keys = Self.resourceKeys(
                agents, entries: state.current.listedResources ? resources.entries(of: agents) : [])
            let (toolsChanged, resourcesChanged) = state.withLock { state -> (Bool, Bool) in
                defer {
                    state.offersWriting = writing
                    state.resourceKeys = keys
                }
                return (
                    state.offersWriting.map { $0 != writing } ?? false, state.resourceKeys.map { $0 != keys } ?? false
                )
            }
            if toolsChanged {
                output.log("the writing tools are now \(writing ? "on" : "off"); telling the client")
                listChanged("notifications/tools/list_changed", tools: true)
            }
            if resourcesChanged { listChanged("notifications/resources/list_changed", tools: false) }
            subscriptions.reconcile()
        }
    }
}
