import JarvisCore

/// One decoded JSON-RPC 2.0 request or notification.
package struct RPCRequest: Sendable, Hashable {
    /// The request id (string, number or null), or nil for a notification that wants no answer.
    package var id: JSONValue?
    /// The method name.
    package var method: String
    /// The params object (an absent params is an empty object).
    package var params: JSONObject

    package init(id: JSONValue?, method: String, params: JSONObject = JSONObject()) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// The deepest request accepted: the request object and its params around a value of
    /// the deepest wire encoding (``PreferenceValue/maxWireDepth``), so every value a scanner
    /// serves can be sent back with `set`.
    package static let maxDepth = JSONParser.maxValueWireDepth + 2

    /// Decodes a request line as the agent reads it (``RPCMessage/Rules/agent``).
    /// - Throws: an ``RPCFailure`` carrying the id it could recover (null otherwise): a parse
    ///   error for bad JSON or UTF-8, an invalid request for a wrong shape, a batch array or
    ///   an answer (the agent sends no requests, so nothing it reads can answer one).
    package static func decode(_ line: [UInt8], maxDepth: Int = maxDepth) throws(RPCFailure) -> RPCRequest {
        var rules = RPCMessage.Rules.agent
        rules.maxDepth = maxDepth
        switch try RPCMessage.decode(line, rules: rules) {
        case .request(let request):
            return request
        case .answer(let id):
            throw RPCFailure(
                id: id,
                error: .invalidRequest("this line is an answer, but the agent sends no requests; send a request"))
        }
    }

    /// The line of a request as a client sends it.
    package var line: [UInt8] {
        var object: JSONObject = ["jsonrpc": "2.0"]
        if let id { object["id"] = id }
        object["method"] = .string(method)
        if !params.isEmpty { object["params"] = .object(params) }
        return JSONWriter.bytes(.object(object))
    }
}

/// A request that failed before or during handling, with the id to answer to.
package struct RPCFailure: Error, Sendable, Hashable {
    package var id: JSONValue
    package var error: RPCError

    package init(id: JSONValue, error: RPCError) {
        self.id = id
        self.error = error
    }
}
