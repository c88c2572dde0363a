import Foundation

/// A stored preference value, lossless for everything a property list can hold.
///
/// Jarvis never flattens a value into a string: an integer stays an integer, a date nested
/// three levels deep stays a date, data stays data. Scanners translate their storage into
/// this model and back, and the wire protocol encodes it as described in `docs/PROTOCOL.md`.
public enum PreferenceValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([PreferenceValue])
    case dictionary([String: PreferenceValue])
    /// An integer beyond `Int64` or a real beyond `Double`, kept as its exact literal; its
    /// ``type`` is `.integer` or `.real`. See ``BigNumber`` for when this case is used.
    case bigNumber(BigNumber)

    /// The value's type, as the wire protocol names it.
    public var type: PreferenceType {
        switch self {
        case .string: .string
        case .integer: .integer
        case .real: .real
        case .boolean: .boolean
        case .date: .date
        case .data: .data
        case .array: .array
        case .dictionary: .dictionary
        case .bigNumber(let number): number.kind == .integer ? .integer : .real
        }
    }

    /// A one-line human preview, cut to `limit` characters, for listings and terminal views.
    public func preview(limit: Int = 60) -> String {
        let text: String
        switch self {
        case .string(let value): text = value
        case .integer(let value): text = String(value)
        case .real(let value): text = unrepresentableText ?? String(value)
        case .boolean(let value): text = value ? "true" : "false"
        case .date(let value): text = unrepresentableText ?? DateText.format(value)
        case .data(let value): text = "<\(value.count) bytes>"
        case .array(let values): text = "[\(values.count) item\(values.count == 1 ? "" : "s")]"
        case .dictionary(let values): text = "{\(values.count) key\(values.count == 1 ? "" : "s")}"
        case .bigNumber(let number): text = number.literal
        }
        let flat = text.replacingOccurrences(of: "\n", with: "⏎")
        guard flat.count > limit, limit > 1 else { return flat }
        return String(flat.prefix(limit - 1)) + "…"
    }
}

extension PreferenceValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A real value.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// An array value.
    public init(arrayLiteral elements: PreferenceValue...) { self = .array(elements) }
    /// A dictionary value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PreferenceValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
