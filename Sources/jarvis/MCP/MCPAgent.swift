import JarvisCore
import JarvisRemote

/// One agent the MCP server is connected to, as its `hello` described it.
struct MCPAgent: Sendable {
    /// Where it listens; connections are cached by its text form.
    var endpoint: Endpoint
    /// The connection tool calls use.
    var client: JarvisClient
    /// Its discovery file, when it has one in this user's runtime folder.
    var record: AgentRecord?
    /// The name it gave in `hello`.
    var name: String
    /// Its process id, when it said.
    var pid: Int64?
    /// Whether it lets clients change values (false in production and with `--read-only`).
    var allowsEditing: Bool
    /// Whether it lets clients see secret values.
    var allowsReveal: Bool
    /// Whether it runs the production configuration.
    var isProduction: Bool
    /// Its scanner ids.
    var scanners: [String]
    /// The longest request line it takes.
    var maxLineLength: Int

    init(endpoint: Endpoint, client: JarvisClient, record: AgentRecord?) {
        self.endpoint = endpoint
        self.client = client
        self.record = record
        let hello = client.helloResult
        name = hello.agent
        pid = hello.pid
        allowsEditing = hello.capabilities.editing
        allowsReveal = hello.capabilities.reveal
        isProduction = hello.capabilities.production
        scanners = hello.scanners
        maxLineLength = hello.capabilities.maxLineLength
    }

    /// The cache key.
    var key: String { endpoint.description }

    /// What `list_agents` shows: never the TCP token.
    var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        if let pid { object["pid"] = .number(JSONNumber(pid)) }
        object["endpoint"] = .string(endpoint.description)
        if let record {
            object["started"] = .string(record.started)
            object["platform"] = .string(record.platform)
            if let tcp = record.tcp { object["tcp"] = .string(tcp) }
            if let device = record.device { object["device"] = .string(device) }
            if let bundleID = record.bundleID { object["bundleID"] = .string(bundleID) }
        }
        object["editing"] = .bool(allowsEditing)
        object["reveal"] = .bool(allowsReveal)
        object["production"] = .bool(isProduction)
        object["scanners"] = .array(scanners.map(JSONValue.string))
        return .object(object)
    }
}
