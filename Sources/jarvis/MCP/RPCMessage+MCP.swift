import JarvisRemote

/// How the MCP server reads a line: with the agent's decoder, under MCP's rules. Framing,
/// decoding, errors and answers are all the agent's codec's (`Sources/JarvisRemote/Wire`).
extension RPCMessage.Rules {
    /// MCP's: ids are strings or whole numbers, never null; members JSON-RPC does not define
    /// are ignored; a line cut short or nested too deep is answered under the id its start
    /// shows (an MCP client waits on every request); nesting as deep as the agent's requests.
    static let mcp = RPCMessage.Rules(
        maxDepth: RPCRequest.maxDepth, nullAndFractionalIDs: false, refusesUnknownMembers: false, recoversIDs: true)
}
