import JarvisCore
import JarvisRemote

/// The two error codes MCP defines, beside the agent's own: everything else the MCP server
/// answers is an error of the agent's codec.
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
