import JarvisCore
import JarvisRemote

/// Builders for the JSON Schemas the tools publish, and the schemas of the wire shapes that
/// results carry (items, audit records, snapshots) as `docs/PROTOCOL.md` describes them.
///
/// Output schemas list the members a client can rely on and let others through, so a newer
/// agent that adds a member never makes an MCP client reject a result.
enum MCPSchema {
    /// The longest name (scanner, container, key, glob, pointer) an argument may hold.
    static let maxNameLength = 16_384

    /// A string argument.
    static func string(_ description: String, maxLength: Int = maxNameLength) -> JSONValue {
        ["type": "string", "description": .string(description), "maxLength": .number(JSONNumber(maxLength))]
    }

    /// A string argument with a closed set of values.
    static func oneOf(_ values: [String], _ description: String) -> JSONValue {
        ["type": "string", "description": .string(description), "enum": .array(values.map(JSONValue.string))]
    }

    /// An integer argument in a range.
    static func integer(_ description: String, minimum: Int, maximum: Int) -> JSONValue {
        [
            "type": "integer", "description": .string(description), "minimum": .number(JSONNumber(minimum)),
            "maximum": .number(JSONNumber(maximum)),
        ]
    }

    /// A boolean argument.
    static func boolean(_ description: String) -> JSONValue {
        ["type": "boolean", "description": .string(description)]
    }

    /// Any JSON value.
    static func any(_ description: String) -> JSONValue {
        ["description": .string(description)]
    }

    /// An input object: only the listed arguments are accepted.
    static func input(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var object: JSONObject = ["type": "object", "properties": .object(JSONObject(properties))]
        if !required.isEmpty { object["required"] = .array(required.map(JSONValue.string)) }
        object["additionalProperties"] = false
        return .object(object)
    }

    /// An output object: the listed members, others allowed.
    static func output(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var object: JSONObject = ["type": "object", "properties": .object(JSONObject(properties))]
        if !required.isEmpty { object["required"] = .array(required.map(JSONValue.string)) }
        return .object(object)
    }

    /// An array of `element`.
    static func array(of element: JSONValue) -> JSONValue {
        ["type": "array", "items": element]
    }

    /// An item in the wire shape (`docs/PROTOCOL.md`, "Items").
    static let item: JSONValue = output(
        [
            ("scanner", ["type": "string"]), ("container", ["type": "string"]), ("key", ["type": "string"]),
            ("type", oneOf(PreferenceType.allCases.map(\.rawValue), "the value's type")),
            ("value", any("the value in the wire encoding; absent when masked or unset")),
            ("revision", ["type": "string"]), ("masked", ["type": "boolean"]), ("length", ["type": "integer"]),
            ("fingerprint", ["type": "string"]), ("layer", ["type": "string"]), ("encoding", ["type": "string"]),
            ("readOnly", ["type": "boolean"]), ("pointer", ["type": "string"]), ("unset", ["type": "boolean"]),
            ("default", any("the catalog's default")), ("description", ["type": "string"]),
            ("allowed", ["type": "array"]), ("range", ["type": "object"]),
        ], required: ["scanner", "container", "key", "type", "revision"])

    /// An audit record (`docs/PROTOCOL.md`, `history`).
    static let auditRecord: JSONValue = output(
        [
            ("sequence", ["type": "integer"]), ("time", ["type": "string"]), ("action", ["type": "string"]),
            ("transport", ["type": "string"]), ("peer", ["type": "string"]), ("client", ["type": "string"]),
            ("scanner", ["type": "string"]), ("container", ["type": "string"]), ("key", ["type": "string"]),
            ("oldRevision", ["type": "string"]), ("newRevision", ["type": "string"]), ("count", ["type": "integer"]),
        ], required: ["sequence", "action", "scanner", "container", "key"])

    /// A journal entry (`docs/PROTOCOL.md`, `journal`).
    static let journalEntry: JSONValue = output(
        [
            ("id", ["type": "integer"]), ("time", ["type": "string"]), ("action", ["type": "string"]),
            ("scanner", ["type": "string"]), ("container", ["type": "string"]), ("key", ["type": "string"]),
            ("before", ["type": "object"]), ("after", ["type": "object"]), ("undoable", ["type": "boolean"]),
        ], required: ["id", "action", "scanner", "container", "key", "undoable"])

    /// A problem a listing reports for a container it could not read.
    static let problem: JSONValue = output([
        ("scanner", ["type": "string"]), ("name", ["type": "string"]), ("problem", ["type": "string"]),
    ])

    /// A snapshot document, as `jarvis export` writes it.
    static let snapshot: JSONValue = output(
        [
            ("format", ["type": "string", "const": .string(JarvisSnapshot.format)]),
            ("version", ["type": "integer"]), ("agent", ["type": "object"]), ("exported", ["type": "string"]),
            ("items", array(of: item)),
        ], required: ["format", "version", "items"])
}
