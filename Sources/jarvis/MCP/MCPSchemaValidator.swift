import JarvisCore

/// Checks tool arguments against the input schema the tool publishes, so what `tools/list`
/// promises and what `tools/call` accepts can never drift apart.
///
/// It understands the part of JSON Schema the tool catalogue uses: `type` (a name or a
/// list), `properties`, `required`, `additionalProperties: false`, `enum`, `const`,
/// `minimum`, `maximum`, `minLength`, `maxLength` and `items`.
enum MCPSchemaValidator {
    /// The first problem found, as a sentence naming the argument; nil when the value fits.
    static func problem(_ value: JSONValue, against schema: JSONValue, path: String = "") -> String? {
        let place = path.isEmpty ? "the arguments" : "'\(path)'"
        if let types = typeNames(schema["type"]), !types.contains(where: { matches(value, type: $0) }) {
            return "\(place) must be \(types.map(article).joined(separator: " or ")), not \(describe(value))"
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            let names = allowed.map { JSONWriter.string($0) }.joined(separator: ", ")
            return "\(place) must be one of \(names)"
        }
        if let constant = schema["const"], constant != value {
            return "\(place) must be \(JSONWriter.string(constant))"
        }
        switch value {
        case .string(let text):
            // UTF-8 bytes bound the characters from above: count characters only when needed.
            if let maximum = schema["maxLength"]?.int64Value, text.utf8.count > maximum, text.count > maximum {
                return "\(place) is \(text.count) characters long; at most \(maximum) are accepted"
            }
            if let minimum = schema["minLength"]?.int64Value, text.count < minimum {
                return "\(place) must have at least \(minimum) character(s)"
            }
        case .number(let number):
            if let minimum = schema["minimum"]?.doubleValue, let given = number.doubleValue, given < minimum {
                return "\(place) must be at least \(schema["minimum"].map { JSONWriter.string($0) } ?? "")"
            }
            if let maximum = schema["maximum"]?.doubleValue, number.doubleValue.map({ $0 > maximum }) ?? true {
                return "\(place) must be at most \(schema["maximum"].map { JSONWriter.string($0) } ?? "")"
            }
        case .array(let elements):
            if let element = schema["items"] {
                for (index, item) in elements.enumerated() {
                    if let problem = problem(item, against: element, path: "\(path)[\(index)]") { return problem }
                }
            }
        case .object(let object):
            return objectProblem(object, against: schema, path: path)
        default:
            break
        }
        return nil
    }

    private static func objectProblem(_ object: JSONObject, against schema: JSONValue, path: String) -> String? {
        let properties = schema["properties"]?.objectValue ?? [:]
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
            return "the argument '\(join(path, name))' is required"
        }
        for (name, value) in object {
            guard let property = properties[name] else {
                if schema["additionalProperties"] == .bool(false) {
                    let known = properties.keys.joined(separator: ", ")
                    return "there is no argument '\(join(path, name))'; the arguments are \(known)"
                }
                continue
            }
            if let problem = problem(value, against: property, path: join(path, name)) { return problem }
        }
        return nil
    }

    private static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }

    private static func typeNames(_ type: JSONValue?) -> [String]? {
        switch type {
        case .string(let name): return [name]
        case .array(let names): return names.compactMap(\.stringValue)
        default: return nil
        }
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("null", .null),
            ("number", .number):
            return true
        case ("integer", .number(let number)):
            return number.int64Value != nil
        default:
            return false
        }
    }

    private static func article(_ type: String) -> String {
        ["integer", "array", "object"].contains(type) ? "an \(type)" : "a \(type)"
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let number): return number.isInteger ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
