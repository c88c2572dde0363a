import Foundation
import JarvisCore

/// An edit in progress: which editor fits, the text it starts from, and how what the user
/// typed becomes a value — checked against the type and the key catalog before anything is
/// sent.
///
/// Every editor works on text: a toggle sends `true`/`false`, a date picker ISO 8601, a picker
/// one of ``choices`` (as ``ValueFormat/editText(_:)``), so the terminal and the panel share
/// ``value(from:)``.
public struct ValueDraft: Sendable, Hashable {
    /// The editor that fits the value.
    public enum Editor: Sendable, Hashable {
        /// Free text.
        case text
        /// A whole number, within ``ValueDraft/range`` when the catalog gives one.
        case integer
        /// A number, within ``ValueDraft/range`` when the catalog gives one.
        case real
        /// On or off.
        case toggle
        /// A date and time.
        case date
        /// Bytes as base64.
        case data
        /// One of ``ValueDraft/choices``.
        case choice
        /// A dictionary or an array as JSON.
        case json
    }

    /// The key being edited.
    public var address: PreferenceAddress
    /// Where inside the key's value; empty for the whole value.
    public var pointer: JSONPointer
    /// The type the value must have.
    public var type: PreferenceType
    /// The editor to show.
    public var editor: Editor
    /// The text the editor starts with.
    public var text: String
    /// The values the catalog allows, when it lists them.
    public var choices: [PreferenceValue]
    /// The range the catalog allows, for numbers.
    public var range: ClosedRange<Double>?
    /// The revision the edit was read at; nil for a new key (sent as "must not exist").
    public var expectedRevision: Revision?
    /// Whether this adds a key that does not exist yet.
    public var isNew: Bool
    /// JSON text uses the wire encoding (`$date`, `$data`) because the value holds dates or
    /// data that plain JSON cannot; false everywhere else.
    public var usesWireEncoding: Bool
    /// Whether this replaces a masked secret the user has not seen: made only by
    /// ``InspectorSession/replacementDraft(for:)``, refused empty, and sent only once the
    /// user answered ``confirmation``.
    public var replacesSecret = false
    /// Whether this adds an element at the end of an array (``pointer`` names the index
    /// after the last), made by ``InspectorSession/appendDraft(to:)``.
    public var isAppend = false
    /// The question a face asks before sending (yes or no), e.g. when the draft replaces a
    /// secret; nil when a save needs no confirmation. Pass `confirmed: true` to
    /// ``InspectorSession/save(_:text:confirmed:)`` once the user said yes.
    public var confirmation: String?

    /// A draft with every field given.
    public init(
        address: PreferenceAddress, pointer: JSONPointer = JSONPointer(tokens: []), type: PreferenceType,
        text: String, choices: [PreferenceValue] = [], range: ClosedRange<Double>? = nil,
        expectedRevision: Revision?, isNew: Bool = false, usesWireEncoding: Bool = false
    ) {
        self.address = address
        self.pointer = pointer
        self.type = type
        self.text = text
        self.choices = choices
        self.range = range
        self.expectedRevision = expectedRevision
        self.isNew = isNew
        self.usesWireEncoding = usesWireEncoding
        editor = Self.editor(for: type, choices: choices)
    }

    /// The editor that fits a type.
    static func editor(for type: PreferenceType, choices: [PreferenceValue]) -> Editor {
        if !choices.isEmpty { return .choice }
        switch type {
        case .string: return .text
        case .integer: return .integer
        case .real: return .real
        case .boolean: return .toggle
        case .date: return .date
        case .data: return .data
        case .array, .dictionary: return .json
        }
    }

    /// What the field's label says about what to type, e.g. `integer: a whole number, 1 to 10`.
    public var hint: String {
        var text: String
        switch type {
        case .string: text = "string: any text"
        case .integer: text = "integer: a whole number"
        case .real: text = "real: a number"
        case .boolean: text = "boolean: true or false"
        case .date: text = "date: ISO 8601, e.g. 2024-01-15T10:00:00Z"
        case .data: text = "data: base64"
        case .array: text = usesWireEncoding ? "array: JSON, dates as {\"$date\":…}" : "array: JSON"
        case .dictionary: text = usesWireEncoding ? "dictionary: JSON, dates as {\"$date\":…}" : "dictionary: JSON"
        }
        if !choices.isEmpty {
            text += "; one of " + choices.map { ValueFormat.preview($0, limit: 30) }.joined(separator: ", ")
        }
        if let range { text += ", \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))" }
        return text
    }

    /// The place the edit writes to, as the wire names it.
    public var title: String {
        pointer.isWhole ? address.key : address.key + pointer.description
    }

    /// Reads what the user typed as a value of ``type``, refusing text the type cannot hold
    /// and values the key catalog does not allow.
    /// - Throws: ``JarvisError`` `.typeMismatch` with a message for the field.
    public func value(from text: String) throws(JarvisError) -> PreferenceValue {
        let value = try Self.parse(text, as: type, wireEncoding: usesWireEncoding)
        guard value.type == type else {
            throw JarvisError(
                .typeMismatch,
                "this is \(Self.article(type)) \(type); that is \(Self.article(value.type)) \(value.type)")
        }
        if !choices.isEmpty, !choices.contains(value) {
            let list = choices.map { ValueFormat.preview($0, limit: 30) }.joined(separator: ", ")
            throw JarvisError(.typeMismatch, "the key catalog allows only: \(list)")
        }
        if let range, let number = Self.number(of: value), !range.contains(number) {
            throw JarvisError(
                .typeMismatch,
                "the key catalog allows \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))")
        }
        return value
    }

    /// Parses text as a value of `type`: JarvisCore's ``ValueReading/value(_:as:wireEncoding:)``,
    /// the one reading `jarvis set`, MCP and every inspector face share.
    /// - Parameter wireEncoding: JSON for arrays and dictionaries is in the wire encoding
    ///   rather than plain JSON.
    /// - Throws: ``JarvisError`` `.typeMismatch` saying what was expected.
    public static func parse(_ text: String, as type: PreferenceType, wireEncoding: Bool = false) throws(JarvisError)
        -> PreferenceValue
    {
        try ValueReading.value(text, as: type, wireEncoding: wireEncoding)
    }

    private static func article(_ type: PreferenceType) -> String {
        [.integer, .array].contains(type) ? "an" : "a"
    }

    private static func number(of value: PreferenceValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        case .bigNumber(let big): return Double(big.literal) ?? .infinity
        default: return nil
        }
    }

    static func number(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : String(bound)
    }
}
