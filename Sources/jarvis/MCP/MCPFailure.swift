import JarvisCore

/// A JSON-RPC error answer of the MCP server: a code from JSON-RPC 2.0 or MCP, and a message
/// written for the person (or model) reading it.
struct MCPFailure: Error, Sendable {
    /// The JSON-RPC error code.
    var code: Int
    /// What went wrong and what to do.
    var message: String
    /// Structured detail, such as the versions a server supports.
    var data: JSONValue? = nil

    /// `-32700`: the line is not JSON.
    static func parse(_ message: String) -> MCPFailure { MCPFailure(code: -32700, message: message) }
    /// `-32600`: not a JSON-RPC 2.0 request.
    static func invalidRequest(_ message: String) -> MCPFailure { MCPFailure(code: -32600, message: message) }
    /// `-32601`: no such method.
    static func methodNotFound(_ message: String) -> MCPFailure { MCPFailure(code: -32601, message: message) }
    /// `-32602`: the params do not fit the method (or name no known tool).
    static func invalidParams(_ message: String) -> MCPFailure { MCPFailure(code: -32602, message: message) }
    /// `-32603`: the server failed.
    static func internalError(_ message: String) -> MCPFailure { MCPFailure(code: -32603, message: message) }
    /// `-32002`: MCP's code for a resource that does not exist.
    static func resourceNotFound(_ message: String) -> MCPFailure { MCPFailure(code: -32002, message: message) }

    /// `-32022`: MCP's code for a protocol version the server does not speak, with the ones it does.
    static func unsupportedVersion(_ message: String, supported: [String]) -> MCPFailure {
        MCPFailure(code: -32022, message: message, data: .object(["supported": .array(supported.map(JSONValue.string))]))
    }

    /// The `error` member of an answer.
    var json: JSONValue {
        var object: JSONObject = ["code": .number(JSONNumber(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}
