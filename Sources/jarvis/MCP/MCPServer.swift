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
    /// The protocol revisions spoken, oldest first; the last is offered to a client asking
    /// for one this server does not know.
    static let supportedVersions = ["2025-06-18", "2025-11-25"]
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
    }

    init(bridge: MCPAgentBridge, allowReveal: Bool) {
        self.bridge = bridge
        self.allowReveal = allowReveal
        runner = MCPToolRunner(bridge: bridge, allowReveal: allowReveal)
        resources = MCPResources(bridge: bridge)
        subscriptions = MCPSubscriptions(output: output, bridge: bridge)
    }

    /// Serves until the client closes standard input.
    func run() -> Never {
        var input = MCPInput(limit: Self.lineLimit)
        while true {
            switch input.next() {
            case .end:
                exit(0)
            case .tooLong(let prefix, let length):
                output.answer(
                    MCPRequestID.find(in: prefix) ?? .null,
                    failure: .invalidRequest(
                        "the message is \(length) bytes, over this server's limit of \(Self.lineLimit) bytes; it was dropped. Send smaller arguments (an agent takes at most about 1 MiB per value)."
                    ))
            case .line(let line):
                handle(line)
            }
        }
    }

    /// Answers one line.
    func handle(_ line: ArraySlice<UInt8>) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let message: MCPMessage
        do {
            message = try MCPMessage.decode(line)
        } catch {
            output.answer(error.id, failure: error.failure)
            return
        }
        switch message {
        case .request(let id, let method, let params):
            do {
                output.answer(id, result: try respond(method, params))
            } catch {
                output.answer(id, failure: error)
            }
        case .notification, .response:
            // `notifications/initialized` needs nothing; `notifications/cancelled` comes after
            // the answer, since requests are answered in order.
            break
        }
    }

    private func respond(_ method: String, _ params: JSONObject) throws(MCPFailure) -> JSONValue {
        switch method {
        case "initialize": return try initialize(params)
        case "ping": return [:]
        default: break
        }
        guard Self.methods.contains(method) else {
            throw .methodNotFound(
                "this server has no method '\(method.prefix(100))'; it serves \((["initialize", "ping"] + Self.methods).joined(separator: ", "))"
            )
        }
        guard let version = state.current.version else {
            throw .invalidRequest("send initialize first: this session has not been initialized")
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
            return [:]
        case "resources/unsubscribe":
            guard let uri = MCPResourceURI(parsing: try Self.uri(params)) else {
                throw .invalidParams("that is not a Jarvis resource URI")
            }
            subscriptions.unsubscribe(uri)
            return [:]
        default:
            throw .methodNotFound("this server has no method '\(method.prefix(100))'")
        }
    }

    /// The methods served once initialized.
    static let methods = [
        "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read",
        "resources/subscribe", "resources/unsubscribe",
    ]

    private func initialize(_ params: JSONObject) throws(MCPFailure) -> JSONValue {
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

    private func toolsCall(_ params: JSONObject, version: String) throws(MCPFailure) -> JSONValue {
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

    private static func uri(_ params: JSONObject) throws(MCPFailure) -> String {
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
                output.notify("notifications/tools/list_changed")
            }
            if resourcesChanged { output.notify("notifications/resources/list_changed") }
            subscriptions.reconcile()
        }
    }
}
