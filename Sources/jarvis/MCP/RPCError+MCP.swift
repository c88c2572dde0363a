import JarvisCore
import JarvisRemote

/// The MCP server's few additions to the agent's JSON-RPC codec: how strictly it reads a
/// line, and the two error codes MCP defines. Everything else (decoding, framing, errors,
/// answers) is the agent's own.
extension RPCMessage.Rules {
    /// MCP's: ids are strings or whole numbers, never null; members JSON-RPC does not define
    /// are ignored; nesting as deep as the agent's requests.
    static let mcp = RPCMessage.Rules(
        maxDepth: RPCRequest.maxDepth, nullAndFractionalIDs: false, refusesUnknownMembers: false)
}

extension RPCError {
    /// `-32002`: MCP's code for a resource that does not exist.
    static func resourceNotFound(_ message: String) -> RPCError {
        RPCError(code: -32002, message: message, name: "resourceNotFound")
    }

    /// `-32022`: MCP's code for a protocol revision the server does not speak; `data.supported`
    /// lists the ones it does.
    static func unsupportedVersion(_ message: String, supported: [String]) -> RPCError {
        RPCError(
            code: -32022, message: message, name: "unsupportedVersion",
            details: ["supported": .array(supported.map(JSONValue.string))])
    }
}
