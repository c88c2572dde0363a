import Foundation

/// Text a person typed (or a JSON value an assistant sent), read as the value to store: the
/// one reading every face shares — `jarvis set`, MCP `set_preference`, the terminal inspector
/// and the panel — so that a value's type changes only when someone asks for another type.
///
/// Three cases, in this order:
/// - a type was asked for (`--int`, MCP `type`, an editor's type): the text must fit it;
/// - the place already has a type (the stored value's, else the key catalog's): the text is
///   read as that type, and text that does not fit it is refused with the type to send to
///   change it;
/// - the place is new: a JSON number or boolean literal (`9090`, `2.5`, `true`) takes its
///   type, anything else is a string, and ``note`` says which type was chosen.
///
/// ```swift
/// let port = try ValueReading("9090", current: .integer)          // .integer(9090)
/// let new = try ValueReading("true", current: nil)                // .boolean(true), with a note
/// try ValueReading("abc", current: .integer)                      // throws: … send type "string" …
/// ```
///
/// Messages name a type change as `send type "NAME"`, the wire's spelling; the CLI rewrites
/// that to its flag (`use --string`).
public struct ValueReading: Sendable, Hashable {
    /// Why the value has its type.
    public enum Basis: Sendable, Hashable {
        /// The type was asked for.
        case asked
        /// The place's type (stored, or declared by the key catalog) was kept.
        case kept
        /// A new place took the type of what was typed: a JSON literal's, else string.
        case chosen
    }

    /// The value to store.
    public var value: PreferenceValue
    /// Why it has its type.
    public var basis: Basis
    /// The text itself, when a new place's type was chosen from a literal in it: what to
    /// store instead where the container refuses that type (a secret holds only text);
    /// nil otherwise.
    public var fallback: PreferenceValue?

    /// What to tell the person about the type, e.g. `stored as an integer; send type "string"
    /// to store the text`; nil unless a new place's type was chosen.
    public var note: String? {
        guard basis == .chosen else { return nil }
        let type = value.type
        guard type != .string else { return "stored as a string" }
        return "stored as \(Self.article(type)) \(type); send type \"string\" to store the text"
    }

    /// Reads `text` for a place.
    /// - Parameters:
    ///   - asked: the type asked for; nil to keep `current` or, for a new place, to choose.
    ///   - current: the place's type now (the stored value's, else the key catalog's); nil
    ///     for a place that holds nothing.
    ///   - wireEncoding: JSON for arrays and dictionaries is in the wire encoding (`$date`,
    ///     `$data`, `$real`) rather than plain JSON.
    /// - Throws: ``JarvisError`` `.typeMismatch` saying what the text is not and, when a
    ///   type was kept, which type to send to change it.
    public init(
        _ text: String, as asked: PreferenceType? = nil, current: PreferenceType?, wireEncoding: Bool = false
    ) throws(JarvisError) {
        fallback = nil
        if let asked {
            value = try Self.value(text, as: asked, wireEncoding: wireEncoding)
            basis = .asked
        } else if let current {
            do {
                value = try Self.value(text, as: current, wireEncoding: wireEncoding)
            } catch {
                throw Self.refusal(text, current: current, reason: error.message)
            }
            basis = .kept
        } else if let literal = Self.literal(text) {
            value = literal
            basis = .chosen
            fallback = .string(text)
        } else {
            value = .string(text)
            basis = .chosen
        }
    }

    /// Reads a JSON value (an MCP `set_preference` `value`, in the wire encoding) for a place
    /// without a type asked for: a string is read as text would be (``init(_:as:current:wireEncoding:)``);
    /// a number or boolean for a place of another scalar type is read through its text, so
    /// `9090` for a string key stores `"9090"` and `3` for a real stores `3.0`; an array or a
    /// dictionary must match the place's type.
    /// - Throws: ``JarvisError`` `.typeMismatch` with the type to send to change the type.
    public init(json: JSONValue, current: PreferenceType?) throws(JarvisError) {
        switch json {
        case .string(let text):
            try self.init(text, current: current, wireEncoding: true)
            return
        case .number(let number):
            guard let current, current != .integer || PreferenceValue.integer(decimal: number.text) == nil else {
                break
            }
            try self.init(number.text, current: current, wireEncoding: true)
            return
        case .bool(let flag):
            guard let current, current != .boolean else { break }
            try self.init(flag ? "true" : "false", current: current, wireEncoding: true)
            return
        case .null, .array, .object:
            break
        }
        let decoded = try PreferenceValue(json: json)
        guard let current else {
            self.init(value: decoded, basis: .chosen)
            return
        }
        guard decoded.type == current else {
            throw Self.refusal(
                JSONWriter.string(json), current: current,
                reason: "that is \(Self.article(decoded.type)) \(decoded.type)", suggesting: decoded.type)
        }
        self.init(value: decoded, basis: .kept)
    }

    private init(value: PreferenceValue, basis: Basis) {
        self.value = value
        self.basis = basis
        fallback = nil
    }

    /// The reading with ``fallback`` stored instead: the text, kept as a string.
    public var asText: ValueReading? {
        fallback.map { ValueReading(value: $0, basis: .chosen) }
    }

    /// Reads `text` as a value of `type`, refusing text the type cannot hold. Surrounding
    /// spaces are ignored except in strings; `1e400` stays that exact literal; booleans take
    /// true/false, yes/no, on/off, 1/0; dates ISO 8601; data base64; arrays and
    /// dictionaries JSON.
    /// - Parameter wireEncoding: JSON for arrays and dictionaries is in the wire encoding
    ///   rather than plain JSON.
    /// - Throws: ``JarvisError`` `.typeMismatch` saying what the text is not.
    public static func value(_ text: String, as type: PreferenceType, wireEncoding: Bool = false) throws(JarvisError)
        -> PreferenceValue
    {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .string:
            return .string(text)
        case .integer:
            guard let value = PreferenceValue.integer(decimal: trimmed) else {
                throw JarvisError(.typeMismatch, "'\(text)' is not a whole number")
            }
            return value
        case .real:
            let special: [String: Double] = [
                "nan": .nan, "inf": .infinity, "infinity": .infinity, "-inf": -.infinity, "-infinity": -.infinity,
            ]
            if let value = special[trimmed.lowercased()] { return .real(value) }
            // The literal decides, so `1e400` stays 1e400 instead of becoming infinity.
            if let value = PreferenceValue.real(literal: trimmed) { return value }
            guard let value = Double(trimmed), value.isFinite else {
                throw JarvisError(.typeMismatch, "'\(text)' is not a number")
            }
            return .real(value)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "yes", "1", "on": return .boolean(true)
            case "false", "no", "0", "off": return .boolean(false)
            default: throw JarvisError(.typeMismatch, "'\(text)' is not a boolean (true or false)")
            }
        case .date:
            guard let date = DateText.parse(trimmed) else {
                throw JarvisError(.typeMismatch, "'\(text)' is not an ISO 8601 date such as 2024-01-15T10:00:00Z")
            }
            return .date(date)
        case .data:
            guard let data = Data(base64Encoded: trimmed) else {
                throw JarvisError(.typeMismatch, "'\(text)' is not base64")
            }
            return .data(data)
        case .array, .dictionary:
            let json: JSONValue
            do {
                json = try JSONParser.parse(text)
            } catch {
                throw JarvisError(.typeMismatch, "that is not JSON: \(error.description)")
            }
            let value = wireEncoding ? try PreferenceValue(json: json) : try PreferenceValue(plainJSON: json)
            guard value.type == type else {
                throw JarvisError(.typeMismatch, "that is \(article(value.type)) \(value.type), not \(article(type)) \(type)")
            }
            return value
        }
    }

    /// The value a JSON number or boolean literal stands for; nil for any other text.
    static func literal(_ text: String) -> PreferenceValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default:
            guard JSONNumber.isValid(trimmed), !trimmed.isEmpty else { return nil }
            return PreferenceValue.integer(decimal: trimmed) ?? PreferenceValue.real(literal: trimmed)
        }
    }

    /// The refusal of text that does not fit the place's type: what it is not, and the type
    /// to send instead (the literal's, else string).
    private static func refusal(
        _ text: String, current: PreferenceType, reason: String, suggesting: PreferenceType? = nil
    ) -> JarvisError {
        let other = suggesting ?? literal(text).map(\.type).flatMap { $0 == current ? nil : $0 } ?? .string
        let shown = text.count > 40 ? String(text.prefix(39)) + "…" : text
        let what = reason.hasPrefix("'") ? reason : "'\(shown)' does not fit: \(reason)"
        return JarvisError(
            .typeMismatch,
            "\(what); the value there is \(article(current)) \(current), and its type changes only when asked: send type \"\(other)\" to store \(article(other)) \(other)"
        )
    }

    static func article(_ type: PreferenceType) -> String {
        [.integer, .array].contains(type) ? "an" : "a"
    }
}
