/// A number that `Int64` or `Double` cannot hold exactly, kept as its decimal literal.
///
/// Real files hold such numbers: a JSON `12345678901234567890`, a property-list integer
/// 2^64−1 (what `UserDefaults` stores for a `UInt64`), a JSON `1e400`. Rounding them to a
/// `Double` would show wrong digits and, written back, change the file; so
/// ``PreferenceValue/bigNumber(_:)`` carries the literal, and its ``PreferenceValue/type`` is
/// still ``PreferenceType/integer`` or ``PreferenceType/real``.
///
/// A big number never holds what the ordinary cases can: an integer literal that fits `Int64`
/// is always ``PreferenceValue/integer(_:)``, and a real literal whose `Double` is finite (and
/// not a nonzero literal that underflows to zero) is always ``PreferenceValue/real(_:)``.
/// Build values with ``PreferenceValue/number(_:)``, ``PreferenceValue/integer(decimal:)`` or
/// ``PreferenceValue/real(literal:)``, which choose the case, so equal values compare equal.
public struct BigNumber: Sendable, Hashable, CustomStringConvertible {
    /// Whether the number is an integer or a real.
    public enum Kind: String, Sendable, Hashable {
        /// An integer beyond `Int64`; ``BigNumber/literal`` holds its exact decimal digits.
        case integer
        /// A real beyond `Double`'s range; ``BigNumber/literal`` holds the text as written.
        case real
    }

    /// Integer or real.
    public let kind: Kind

    /// The literal, in RFC 8259 number grammar. An integer's is canonical (optional `-`, no
    /// leading zeros), so two integers are equal exactly when their values are; a real's is
    /// kept as it was written (`1e400` and `1E400` differ, as ``JSONNumber`` has it).
    public let literal: String

    /// A big integer from decimal digits with an optional sign (`+`/`-`, leading zeros allowed).
    ///
    /// Returns nil when `text` is not a decimal integer, or when it fits `Int64` (then it is an
    /// ordinary ``PreferenceValue/integer(_:)``).
    public init?(integer text: String) {
        guard let canonical = Self.canonicalInteger(text), Int64(canonical) == nil else { return nil }
        kind = .integer
        literal = canonical
    }

    /// A big real from a JSON number literal whose value a `Double` cannot hold.
    ///
    /// Returns nil when `text` is not in RFC 8259 number grammar, or when a `Double` holds it
    /// (finite, and not a nonzero literal that underflows to zero).
    public init?(real text: String) {
        guard JSONNumber.isValid(text), Self.isBeyondDouble(text) else { return nil }
        kind = .real
        literal = text
    }

    /// The literal.
    public var description: String { literal }

    /// The literal as a JSON number, as a JSON file or plain JSON writes it.
    public var json: JSONNumber { JSONNumber(validatedText: literal) }

    /// Why a property list cannot hold this number (one beyond `UInt64`, or `Double`), for the
    /// value at `path` ("" for the value itself).
    package func propertyListRefusal(at path: String) -> String {
        let place = path.isEmpty ? "the value" : "'\(path)'"
        return kind == .integer
            ? "\(place) is \(literal), beyond the integers a property list holds (-2^63 to 2^64-1)"
            : "\(place) is \(literal), beyond the reals a property list holds (64-bit floating point)"
    }

    /// Whether the value fits `UInt64`, the widest integer a property list holds.
    public var uint64Value: UInt64? {
        kind == .integer ? UInt64(literal) : nil
    }

    /// `-`, then digits without leading zeros; nil if `text` is not a signed decimal integer.
    static func canonicalInteger(_ text: String) -> String? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let trimmed = digits.drop(while: { $0 == "0" })
        if trimmed.isEmpty { return "0" }
        return (negative ? "-" : "") + trimmed
    }

    /// Whether a valid JSON number literal overflows a `Double` or underflows it to zero.
    static func isBeyondDouble(_ text: String) -> Bool {
        guard let value = Double(text) else { return true }
        if !value.isFinite { return true }
        guard value == 0 else { return false }
        // Zero is exact only when every mantissa digit is zero.
        let mantissa = text.utf8.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") })
        return mantissa.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") })
    }
}

extension PreferenceValue {
    /// The value of a JSON number literal: an integer, a real, or a ``BigNumber`` when the
    /// literal is beyond `Int64` or `Double`. Never fails and never rounds an integer.
    public static func number(_ number: JSONNumber) -> PreferenceValue {
        if number.isInteger {
            if let integer = number.int64Value { return .integer(integer) }
            if let big = BigNumber(integer: number.text) { return .bigNumber(big) }
        }
        if let big = BigNumber(real: number.text) { return .bigNumber(big) }
        return .real(Double(number.text) ?? .nan)
    }

    /// An integer from decimal text of any length (`+`/`-` sign and leading zeros allowed):
    /// ``integer(_:)`` when it fits `Int64`, else ``bigNumber(_:)``; nil if it is not an integer.
    public static func integer(decimal text: String) -> PreferenceValue? {
        guard let canonical = BigNumber.canonicalInteger(text) else { return nil }
        if let integer = Int64(canonical) { return .integer(integer) }
        return BigNumber(integer: canonical).map(PreferenceValue.bigNumber)
    }

    /// A real from a JSON number literal (with a leading `+` allowed): ``real(_:)`` when a
    /// `Double` holds it, else ``bigNumber(_:)`` keeping the literal; nil if it is not a number.
    public static func real(literal text: String) -> PreferenceValue? {
        let unsigned = text.hasPrefix("+") ? String(text.dropFirst()) : text
        guard JSONNumber.isValid(unsigned) else { return nil }
        if let big = BigNumber(real: unsigned) { return .bigNumber(big) }
        return Double(unsigned).map(PreferenceValue.real)
    }
}
