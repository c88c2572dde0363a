import JarvisCore

/// One line the MCP client sent, read as JSON-RPC 2.0: a request (with an `id`), a
/// notification (without), or an answer to a request of ours (which this server never sends,
/// so answers are ignored).
enum MCPMessage: Sendable {
    /// A request to answer.
    case request(id: JSONValue, method: String, params: JSONObject)
    /// A notification: nothing is answered.
    case notification(method: String, params: JSONObject)
    /// A result or error for a request the server sent.
    case response

    /// Reads one line.
    /// - Throws: ``MCPLineError`` with the failure to answer and the `id` to answer it under
    ///   (null when the line has none that can be read).
    static func decode(_ line: ArraySlice<UInt8>) throws(MCPLineError) -> MCPMessage {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line, maxDepth: 128)
        } catch {
            // A request cut short or nested too deep may still show its id: answering under it
            // spares the client a wait for an answer that would never come.
            let id = MCPRequestID.find(in: Array(line.prefix(MCPInput.prefixLength))) ?? .null
            throw MCPLineError(id: id, failure: .parse("the line is not valid JSON: \(error.description)"))
        }
        guard case .object(let object) = json else {
            let what = json.arrayValue != nil ? "a batch array (MCP does not use batches)" : "not an object"
            throw MCPLineError(
                id: .null, failure: .invalidRequest("the message is \(what); send one JSON-RPC 2.0 object per line"))
        }
        let id = object["id"]
        if let id, !Self.isValidID(id) {
            throw MCPLineError(id: .null, failure: .invalidRequest("\"id\" must be a string or a number"))
        }
        guard object["jsonrpc"] == .string("2.0") else {
            throw MCPLineError(id: id ?? .null, failure: .invalidRequest("the message needs \"jsonrpc\":\"2.0\""))
        }
        guard let methodValue = object["method"] else {
            if id != nil, object["result"] != nil || object["error"] != nil { return .response }
            throw MCPLineError(id: id ?? .null, failure: .invalidRequest("the message has no \"method\""))
        }
        guard let method = methodValue.stringValue else {
            throw MCPLineError(id: id ?? .null, failure: .invalidRequest("\"method\" must be a string"))
        }
        var params = JSONObject()
        if let raw = object["params"] {
            guard case .object(let given) = raw else {
                throw MCPLineError(id: id ?? .null, failure: .invalidParams("\"params\" must be an object"))
            }
            params = given
        }
        guard let id else { return .notification(method: method, params: params) }
        return .request(id: id, method: method, params: params)
    }

    private static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string: return true
        case .number(let number): return number.isInteger
        default: return false
        }
    }
}

/// A line that cannot be served, with the `id` its error answer carries.
struct MCPLineError: Error, Sendable {
    /// The request's id, or null when unknown.
    var id: JSONValue
    /// The answer.
    var failure: MCPFailure
}
