import JarvisCore

/// Encodes and decodes JSON-RPC 2.0 responses and notifications. Pure: no sockets.
package enum RPCResponse {
    /// `{"jsonrpc":"2.0","id":…,"result":…}`
    package static func success(id: JSONValue, result: JSONValue) -> [UInt8] {
        success(id: id) { JSONWriter.write(result, into: &$0) }
    }

    /// `{"jsonrpc":"2.0","id":…,"result":…}` with the result written by `writeResult`: written
    /// around the result rather than as an object holding it, since the envelope is the same
    /// for every answer and building it cost as much as writing a small result.
    package static func success(id: JSONValue, writing writeResult: (inout [UInt8]) -> Void) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(512)
        JSONWriter.writeRaw(successStart, into: &line)
        JSONWriter.write(id, into: &line)
        JSONWriter.writeRaw(successMiddle, into: &line)
        writeResult(&line)
        line.append(UInt8(ascii: "}"))
        return line
    }

    private static let successStart: StaticString = #"{"jsonrpc":"2.0","id":"#
    private static let successMiddle: StaticString = #","result":"#

    /// `{"jsonrpc":"2.0","id":…,"error":{…}}`
    package static func failure(id: JSONValue, error: RPCError) -> [UInt8] {
        JSONWriter.bytes(.object(["jsonrpc": "2.0", "id": id, "error": error.json]))
    }

    /// `{"jsonrpc":"2.0","method":…,"params"?:…}`: a message with no id, which wants no answer;
    /// empty params are left out.
    package static func notification(method: String, params: JSONObject = [:]) -> [UInt8] {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if !params.isEmpty { message["params"] = .object(params) }
        return JSONWriter.bytes(.object(message))
    }

    /// What a client reads from a line: an answer to a request, or a notification.
    package enum Incoming: Sendable, Hashable {
        case result(id: JSONValue, JSONValue)
        case error(id: JSONValue, RPCError)
        case notification(method: String, params: JSONObject)
    }

    /// The deepest message a client accepts: a `changed` notification (message, params,
    /// changes, change, item) around a value of the deepest wire encoding.
    package static let maxDepth = JSONParser.maxValueWireDepth + 5

    /// Decodes one line from the agent.
    package static func decode(_ line: [UInt8]) throws(JarvisError) -> Incoming {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line, maxDepth: maxDepth)
        } catch {
            throw JarvisError(.storage, "the agent sent a line that is not JSON (\(error.description))")
        }
        guard case .object(let object) = json else {
            throw JarvisError(.storage, "the agent sent something other than a JSON-RPC message")
        }
        if let method = object["method"]?.stringValue, object["id"] == nil {
            return .notification(method: method, params: object["params"]?.objectValue ?? JSONObject())
        }
        let id = object["id"] ?? .null
        if let error = object["error"], case .object = error {
            return .error(id: id, RPCError(try Wire.ErrorObject(json: error)))
        }
        guard let result = object["result"] else {
            throw JarvisError(.storage, "the agent sent a response with neither result nor error")
        }
        return .result(id: id, result)
    }
}
