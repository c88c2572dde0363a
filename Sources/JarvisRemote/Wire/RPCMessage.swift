import JarvisCore
import JarvisTransport

/// One line a JSON-RPC 2.0 peer sent: a request or notification to serve, or an answer to a
/// request of the reader's own.
///
/// This is the one request decoder of every face: the agent reads its clients' lines with it
/// (through ``RPCRequest/decode(_:maxDepth:)``) and `jarvis mcp` its MCP client's, so a hostile
/// line gets the same error from both. The faces differ only in their ``Rules``. Pure: no
/// sockets, tested with byte strings.
package enum RPCMessage: Sendable, Hashable {
    /// A request (with an id) or a notification (id nil).
    case request(RPCRequest)
    /// A `result` or an `error` answering a request of the reader's, under its id (null when
    /// the peer could not tell which); nothing answers an answer.
    case answer(id: JSONValue)

    /// What a face accepts where JSON-RPC 2.0 leaves a choice.
    package struct Rules: Sendable, Hashable {
        /// The deepest nesting parsed; a deeper line gets a parse error.
        package var maxDepth: Int
        /// Whether an `id` may also be null or a fraction, as JSON-RPC 2.0 allows; if not, ids
        /// are strings and whole numbers only, as MCP requires.
        package var nullAndFractionalIDs: Bool
        /// Whether members other than `jsonrpc`, `id`, `method` and `params` are refused, so a
        /// misspelt member is never silently ignored, rather than ignored.
        package var refusesUnknownMembers: Bool
        /// Whether a line that is not valid JSON is answered under the id its first bytes show
        /// (``RPCRequest/id(inPrefix:)``), so a client is not left waiting for an answer that
        /// never comes; if not, under null, as JSON-RPC 2.0 says.
        package var recoversIDs: Bool

        /// Rules reading lines nested at most `maxDepth` deep.
        package init(maxDepth: Int, nullAndFractionalIDs: Bool, refusesUnknownMembers: Bool, recoversIDs: Bool) {
            self.maxDepth = maxDepth
            self.nullAndFractionalIDs = nullAndFractionalIDs
            self.refusesUnknownMembers = refusesUnknownMembers
            self.recoversIDs = recoversIDs
        }

        /// The agent's (docs/PROTOCOL.md): any JSON-RPC id, unknown members refused, a parse
        /// error under null, nesting up to ``RPCRequest/maxDepth``.
        package static let agent = Rules(
            maxDepth: RPCRequest.maxDepth, nullAndFractionalIDs: true, refusesUnknownMembers: true, recoversIDs: false)

        /// Whether `id` is a request id under these rules.
        func accepts(id: JSONValue) -> Bool {
            switch id {
            case .string: return true
            case .number(let number): return nullAndFractionalIDs || number.isInteger
            case .null: return nullAndFractionalIDs
            default: return false
            }
        }

        /// What an id must be, for the error refusing one.
        var idKinds: String {
            nullAndFractionalIDs ? "a string, a number or null" : "a string or a whole number"
        }
    }

    /// The members a request has; `refusesUnknownMembers` refuses any other.
    static let requestMembers: Set<String> = ["jsonrpc", "id", "method", "params"]

    /// Decodes one line.
    /// - Throws: an ``RPCFailure`` carrying the id it could recover (null otherwise): a parse
    ///   error for bad JSON or UTF-8 (under the id the line's first bytes show, where the
    ///   rules recover ids), an invalid request for a wrong shape or a batch array, invalid
    ///   params for params that are not an object.
    package static func decode(_ line: [UInt8], rules: Rules) throws(RPCFailure) -> RPCMessage {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line, maxDepth: rules.maxDepth)
        } catch {
            let prefix = rules.recoversIDs ? Array(line.prefix(LineFramer.overflowPrefixLength)) : []
            let id = RPCRequest.id(inPrefix: prefix) ?? .null
            throw RPCFailure(id: id, error: .parse("parse error: \(error.description)"))
        }
        return try decode(json, rules: rules)
    }

    /// Decodes a parsed line.
    package static func decode(_ json: JSONValue, rules: Rules) throws(RPCFailure) -> RPCMessage {
        guard case .object(let object) = json else {
            if case .array = json {
                throw RPCFailure(
                    id: .null,
                    error: .invalidRequest("batch requests are not supported: send one request object per line"))
            }
            throw RPCFailure(id: .null, error: .invalidRequest("a request must be a JSON object"))
        }
        if object["method"] == nil, object["jsonrpc"] == .string("2.0"),
            object["result"] != nil || object["error"] != nil
        {
            return .answer(id: object["id"] ?? .null)
        }
        var id: JSONValue?
        if let rawID = object["id"] {
            guard rules.accepts(id: rawID) else {
                throw RPCFailure(id: .null, error: .invalidRequest("\"id\" must be \(rules.idKinds)"))
            }
            id = rawID
        }
        let answerID = id ?? .null
        guard object["jsonrpc"] == .string("2.0") else {
            throw RPCFailure(id: answerID, error: .invalidRequest("\"jsonrpc\" must be \"2.0\""))
        }
        guard case .string(let method)? = object["method"] else {
            throw RPCFailure(id: answerID, error: .invalidRequest("\"method\" must be a string"))
        }
        var params = JSONObject()
        switch object["params"] {
        case nil, .null?: break
        case .object(let given)?: params = given
        default:
            throw RPCFailure(id: answerID, error: .invalidParams("\"params\" must be an object with named members"))
        }
        if rules.refusesUnknownMembers {
            for (key, _) in object where !requestMembers.contains(key) {
                throw RPCFailure(id: answerID, error: .invalidRequest("unknown request member '\(key.prefix(100))'"))
            }
        }
        return .request(RPCRequest(id: id, method: method, params: params))
    }
}
