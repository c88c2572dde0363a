import JarvisCore

/// One tool as `tools/list` describes it: its name, what it does, the JSON Schemas of its
/// arguments and of its `structuredContent`, and hints on what it changes.
struct MCPTool: Sendable {
    /// The name `tools/call` uses.
    var name: String
    /// A short title for a person.
    var title: String
    /// What the tool does, for the model.
    var description: String
    /// The JSON Schema of its arguments.
    var input: JSONValue
    /// The JSON Schema of its `structuredContent`.
    var output: JSONValue
    /// Whether it changes values: such tools are offered only while an agent allows editing.
    var writes: Bool
    /// Whether a change may remove or overwrite data (meaningful for writing tools).
    var destructive: Bool = false
    /// Whether repeating a call with the same arguments changes nothing more.
    var idempotent: Bool = true

    /// The entry in `tools/list`.
    var json: JSONValue {
        .object([
            "name": .string(name),
            "title": .string(title),
            "description": .string(description),
            "inputSchema": input,
            "outputSchema": output,
            "annotations": .object([
                "title": .string(title),
                "readOnlyHint": .bool(!writes),
                "destructiveHint": .bool(destructive),
                "idempotentHint": .bool(idempotent),
                "openWorldHint": false,
            ]),
        ])
    }
}
