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

    /// Decodes a request line.
    /// - Throws: an ``RPCError`` carrying the id it could recover (null otherwise): a parse
    ///   error for bad JSON or UTF-8, an invalid request for a wrong shape or a batch array.
    package static func decode(_ line: [UInt8], maxDepth: Int = maxDepth) throws(RPCFailure) -> RPCRequest {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line, maxDepth: maxDepth)
        } catch {
            throw RPCFailure(id: .null, error: .parse("parse error: \(error.description)"))
        }
        return try decode(json)
    }

    /// Decodes a parsed request.
    package static func decode(_ json: JSONValue) throws(RPCFailure) -> RPCRequest {
        guard case .object(let object) = json else {
            if case .array = json {
                throw RPCFailure(
                    id: .null,
                    error: .invalidRequest("batch requests are not supported: send one request object per line"))
            }
            throw RPCFailure(id: .null, error: .invalidRequest("a request must be a JSON object"))
        }
        var id: JSONValue?
        if let rawID = object["id"] {
            switch rawID {
            case .string, .number, .null: id = rawID
            default:
                throw RPCFailure(id: .null, error: .invalidRequest("\"id\" must be a string, a number or null"))
            }
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
        for (key, _) in object {
            switch key {
            case "jsonrpc", "id", "method", "params": continue
            default: throw RPCFailure(id: answerID, error: .invalidRequest("unknown request member '\(key)'"))
            }
        }
        return RPCRequest(id: id, method: method, params: params)
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
