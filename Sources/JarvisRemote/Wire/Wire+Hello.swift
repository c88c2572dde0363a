import JarvisCore

/// `hello` and `ping`: the handshake and the liveness check.
extension Wire {
    /// The params of `hello`.
    public struct HelloParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.hello.rawValue
        /// A name for the agent's audit trail.
        public var client: String?
        /// The client's protocol version; the agent refuses another major.
        public var protocolVersion: String?
        /// The agent's token, required on TCP.
        public var token: String?

        /// Params naming the client and its version.
        public init(client: String? = nil, protocolVersion: String? = Wire.protocolVersion, token: String? = nil) {
            self.client = client
            self.protocolVersion = protocolVersion
            self.token = token
        }

        /// `{"client","protocolVersion","token"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("client", client.map(JSONValue.string))
            object.setIfPresent("protocolVersion", protocolVersion.map(JSONValue.string))
            object.setIfPresent("token", token.map(JSONValue.string))
            return object
        }

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(params: raw, method: .hello, allowed: ["client", "protocolVersion", "token"])
            client = try params.optionalString("client")
            protocolVersion = try params.optionalString("protocolVersion")
            token = try params.optionalString("token")
        }
    }

    /// What this agent allows and how it is reached, from the answer to `hello`.
    public struct Capabilities: Sendable, Hashable {
        /// Whether `set`, `delete` and `reset` are allowed.
        public var editing: Bool
        /// Whether secrets may be revealed.
        public var reveal: Bool
        /// Whether the agent runs the production configuration.
        public var production: Bool
        /// The longest line the agent accepts, in bytes.
        public var maxLineLength: Int
        /// Whether the agent listens on TCP.
        public var tcp: Bool
        /// What a client must present in `hello`: a token on TCP, nothing on the Unix socket.
        public var auth: AuthMode
        /// Whether the agent answers `history` (read as false from agents that do not say).
        public var history: Bool
        /// Whether `list` takes `limit` and `cursor` (read as false from agents that do not say).
        public var paging: Bool
        /// How long a request may wait on storage before the agent answers it with an
        /// `unavailable` error naming what did not answer (`--request-timeout`); nil from
        /// agents that do not say. A client waiting less would lose that reason.
        public var requestTimeout: Duration?
        /// Whether `set` and `delete` take `change` and `rollback`, so that several writes are one
        /// change in the journal (read as false from agents that do not say).
        public var changes: Bool

        /// Capabilities as an agent reports them.
        public init(
            editing: Bool, reveal: Bool, production: Bool, maxLineLength: Int, tcp: Bool, auth: AuthMode,
            history: Bool = true, paging: Bool = true, requestTimeout: Duration? = nil, changes: Bool = true
        ) {
            self.changes = changes
            self.editing = editing
            self.reveal = reveal
            self.production = production
            self.maxLineLength = maxLineLength
            self.tcp = tcp
            self.auth = auth
            self.history = history
            self.paging = paging
            self.requestTimeout = requestTimeout
        }

        /// `{"editing","reveal","production","maxLineLength","tcp","auth","history","paging","requestTimeoutMs"?,"changes"}`
        public var json: JSONValue {
            var object: JSONObject = [
                "editing": .bool(editing), "reveal": .bool(reveal), "production": .bool(production),
                "maxLineLength": .integer(maxLineLength), "tcp": .bool(tcp), "auth": .string(auth.rawValue),
                "history": .bool(history), "paging": .bool(paging),
            ]
            object.setIfPresent("requestTimeoutMs", requestTimeout.map { .integer(Self.milliseconds($0)) })
            object["changes"] = .bool(changes)
            return .object(object)
        }

        /// `duration` in whole milliseconds, rounded up so a client never waits less.
        private static func milliseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            let fraction = attoseconds / 1_000_000_000_000_000
            let rest = attoseconds % 1_000_000_000_000_000 > 0 ? 1 : 0
            return seconds.multipliedReportingOverflow(by: 1000).partialValue + fraction + Int64(rest)
        }

        /// Reads the capabilities an agent sent; members added after 1.0 default to false.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "hello capabilities")
            editing = try fields.optionalBool("editing") ?? false
            reveal = try fields.optionalBool("reveal") ?? false
            production = try fields.optionalBool("production") ?? false
            maxLineLength = Int(clamping: fields["maxLineLength"]?.int64Value ?? 0)
            tcp = try fields.optionalBool("tcp") ?? false
            auth = AuthMode(rawValue: try fields.optionalString("auth") ?? AuthMode.none.rawValue)
            history = try fields.optionalBool("history") ?? false
            paging = try fields.optionalBool("paging") ?? false
            changes = try fields.optionalBool("changes") ?? false
            // A positive whole number of milliseconds; anything else is read as not said.
            requestTimeout = fields["requestTimeoutMs"]?.int64Value.flatMap { $0 > 0 ? .milliseconds($0) : nil }
        }
    }

    /// The answer to `hello`: who the agent is and what it allows.
    public struct HelloResult: WireMessage {
        /// Always `"jarvis"`.
        public var `protocol`: String
        /// The agent's protocol version.
        public var protocolVersion: String
        /// The agent's name (its host's process name unless configured).
        public var agent: String
        /// The host's process id.
        public var pid: Int64
        /// The operating system, e.g. `Linux`, `macOS`.
        public var platform: String
        /// What the agent allows.
        public var capabilities: Capabilities
        /// The ids of the scanners it serves, in its order.
        public var scanners: [String]

        /// An answer as an agent gives it.
        public init(
            protocolVersion: String = Wire.protocolVersion, agent: String, pid: Int64, platform: String,
            capabilities: Capabilities, scanners: [String]
        ) {
            self.protocol = "jarvis"
            self.protocolVersion = protocolVersion
            self.agent = agent
            self.pid = pid
            self.platform = platform
            self.capabilities = capabilities
            self.scanners = scanners
        }

        /// `{"protocol","protocolVersion","agent","pid","platform","capabilities","scanners"}`
        public var json: JSONValue {
            .object([
                "protocol": .string(self.protocol), "protocolVersion": .string(protocolVersion),
                "agent": .string(agent), "pid": .integer(pid), "platform": .string(platform),
                "capabilities": capabilities.json, "scanners": .array(scanners.map(JSONValue.string)),
            ])
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a hello answer")
            self.protocol = try fields.optionalString("protocol") ?? "jarvis"
            protocolVersion = try fields.string("protocolVersion")
            agent = try fields.optionalString("agent") ?? "agent"
            pid = fields["pid"]?.int64Value ?? 0
            platform = try fields.optionalString("platform") ?? ""
            capabilities = try Capabilities(json: fields["capabilities"] ?? .object([:]))
            scanners =
                try fields["scanners"] == nil
                ? []
                : fields.list("scanners") { element throws(JarvisError) in
                    guard let id = element.stringValue else {
                        throw JarvisError(.storage, "the agent sent a hello answer whose scanners are not strings")
                    }
                    return id
                }
        }
    }

    /// The answer to `ping`.
    public struct PingResult: WireMessage {
        /// Always true.
        public var pong: Bool

        /// The only answer.
        public init() { pong = true }

        /// `{"pong":true}`
        public var json: JSONValue { .object(["pong": .bool(pong)]) }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            pong = try WireFields(json, "a ping answer").bool("pong")
        }
    }
}
