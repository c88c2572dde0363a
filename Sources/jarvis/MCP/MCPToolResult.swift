import JarvisCore

/// What a tool call answers: text for the model, the wire data as `structuredContent`, and
/// whether it is an error the model should read and correct.
struct MCPToolResult: Sendable {
    /// Text a model reads well.
    var text: String
    /// The data, matching the tool's output schema; nil for errors.
    var structured: JSONValue?
    /// Whether the call failed.
    var isError = false

    /// A failed call: the text says what went wrong and what to do.
    static func failure(_ text: String) -> MCPToolResult {
        MCPToolResult(text: text, structured: nil, isError: true)
    }

    /// A failed call for an agent's error, with its stable code first.
    /// The message may quote names from storage, so it is made printable on one line.
    static func failure(_ error: JarvisError) -> MCPToolResult {
        failure("\(error.code.rawValue): \(MCPToolText.printable(error.message))")
    }

    /// The `tools/call` result.
    var json: JSONValue {
        var object: JSONObject = ["content": [["type": "text", "text": .string(text)]]]
        if let structured { object["structuredContent"] = structured }
        if isError { object["isError"] = true }
        return .object(object)
    }
}
