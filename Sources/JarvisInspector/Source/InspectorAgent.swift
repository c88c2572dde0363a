import JarvisCore
import JarvisRemote

/// A running agent as a picker lists it: its discovery record and, when it answered a
/// `hello`, what it allows.
public struct InspectorAgent: Sendable, Hashable {
    /// Its discovery record.
    public var record: AgentRecord
    /// What it said it allows; nil when it did not answer.
    public var capabilities: Wire.Capabilities?

    /// An agent with what it allows, when known.
    public init(record: AgentRecord, capabilities: Wire.Capabilities?) {
        self.record = record
        self.capabilities = capabilities
    }

    /// What the picker says about editing: `production: read-only`, `editing allowed`,
    /// `read-only`, or `not answering` when it gave no `hello`.
    public var access: String { Self.access(capabilities) }

    /// The words for what an agent allows, in every face.
    public static func access(_ capabilities: Wire.Capabilities?) -> String {
        guard let capabilities else { return "not answering" }
        if capabilities.production { return "production: read-only" }
        return capabilities.editing ? "editing allowed" : "read-only"
    }

    /// The running agents of this user, each asked for its `hello` (a short connection each,
    /// waiting at most `timeout` for an answer).
    /// - Parameter token: the TCP token for agents reached over TCP; nil uses each record's.
    public static func running(token: String? = nil, timeout: Duration = .seconds(1)) throws(JarvisError)
        -> [InspectorAgent]
    {
        try AgentDirectory.running().map { asking($0, token: token, timeout: timeout) }
    }

    /// The agent `record` describes, asked for its `hello` (at most `timeout`).
    static func asking(_ record: AgentRecord, token: String?, timeout: Duration = .seconds(1)) -> InspectorAgent {
        InspectorAgent(record: record, capabilities: hello(record, token: token, timeout: timeout)?.capabilities)
    }

    private static func hello(_ record: AgentRecord, token: String?, timeout: Duration) -> Wire.HelloResult? {
        guard let endpoint = record.endpoint else { return nil }
        do {
            let client = try JarvisClient(
                endpoint: endpoint, clientName: "jarvis-inspect-list",
                token: token ?? record.token, timeout: timeout)
            defer { client.close() }
            return client.helloResult
        } catch {
            return nil
        }
    }
}
