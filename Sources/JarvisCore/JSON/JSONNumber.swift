/// A JSON number kept exactly as written, so integers beyond 64 bits and the difference
/// between `1` and `1.0` survive a read-edit-write cycle.
///
/// Two numbers are equal when their text is equal: `1`, `1.0` and `1e0` are three different
/// numbers here, because a config file that said `1.0` should still say `1.0` after an edit.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's literal text; always valid RFC 8259 number grammar.
    public let text: String

    /// An integer number.
    public init(_ value: Int64) {
        text = String(value)
    }

    /// An integer number.
    public init(_ value: Int) {
        text = String(value)
    }

    /// A number from text its caller checked already follows the grammar (a reader that
    /// took it from a request byte by byte): not checked again.
    package init(checkedText text: String) {
        self.text = text
    }

    /// A real number written with the shortest text that reads back as the same `Double`.
    ///
    /// Returns nil for NaN and infinities, which JSON cannot express. The text always has a
    /// `.` or an exponent, so the value never reads back as an integer.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        var text = value.description
        if !text.utf8.contains(where: Self.marksReal) {
            text += ".0"
        }
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    /// A number from literal text; nil unless `text` follows the RFC 8259 number grammar
    /// (no `+`, no leading zeros, no bare `.`, no NaN or Infinity, no whitespace).
    public init?(text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    /// Wraps text the parser has already checked against the grammar.
    init(validatedText text: String) {
        self.text = text
    }

    /// The literal text, so interpolating a number prints it as it would appear in JSON.
    public var description: String { text }

    /// Whether the literal has no fraction and no exponent.
    public var isInteger: Bool {
        !text.utf8.contains(where: Self.marksReal)
    }

    /// Whether `byte` starts a fraction or an exponent, which make a literal a real number.
    private static func marksReal(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// The value as an `Int64`, only when the literal is an integer that fits exactly.
    public var int64Value: Int64? {
        guard isInteger else { return nil }
        return Int64(text)
    }

    /// The value as a `Double`, possibly rounded; nil when it is out of `Double`'s range.
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Checks `text` against `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func isDigit(_ at: Int) -> Bool {
            at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
        }
        func skipDigits() {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return false }
            skipDigits()
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard isDigit(index) else { return false }
            skipDigits()
        }
        return index == bytes.count
    }
}
