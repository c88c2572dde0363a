/// A JSON document or any part of one.
///
/// Numbers keep their literal text (see ``JSONNumber``) and objects keep their key order
/// (see ``JSONObject``), so a value read from a file writes back the way it was written.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in member order.
    case object(JSONObject)

    /// The member named `key` when this is an object; nil otherwise or when absent.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The string, when this is one.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The number as an exact `Int64`, when this is an integer literal that fits.
    public var int64Value: Int64? {
        guard case .number(let value) = self else { return nil }
        return value.int64Value
    }

    /// The number as a finite `Double`, when this is a number in `Double`'s range.
    public var doubleValue: Double? {
        guard case .number(let value) = self else { return nil }
        return value.doubleValue
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        guard case .object(let value) = self else { return nil }
        return value
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// Literals let tests and RPC handlers write JSON inline: `let reply: JSONValue = ["ok": true]`.

extension JSONValue: ExpressibleByStringLiteral {
    /// A string value.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer number.
    public init(integerLiteral value: Int64) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A real number; a literal too large for `Double` becomes `null`, as JSON has no infinity.
    public init(floatLiteral value: Double) {
        self = JSONNumber(value).map(JSONValue.number) ?? .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean value.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object value in the literal's order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}
