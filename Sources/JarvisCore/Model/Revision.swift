import Foundation

/// A short token that changes whenever a stored value changes.
///
/// It is a 64-bit FNV-1a hash of the value's type-tagged canonical bytes, so it needs no
/// stored state, is the same in every process that reads the same value, and a client can
/// send it back as `expectedRevision` to write only if nobody changed the value meanwhile.
public struct Revision: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Sixteen lowercase hex digits (or, for text a client sent that is not such, that text).
    public var text: String {
        switch storage {
        case .digits(let value):
            var digits: [UInt8] = []
            digits.reserveCapacity(16)
            Self.appendDigits(of: value, to: &digits)
            return String(decoding: digits, as: UTF8.self)
        case .other(let text): return text
        }
    }

    /// The revision as a number when it is the usual sixteen lowercase hex digits: no string
    /// is made for it until someone asks (the agent writes the digits straight into its
    /// answers), where every item served made one. Any other text is kept as it is, so
    /// equal texts are always equal revisions.
    private let storage: Storage

    private enum Storage: Sendable, Hashable {
        case digits(UInt64)
        case other(String)
    }

    /// Wraps revision text received from a client.
    public init(_ text: String) {
        storage = Self.digits(of: text).map(Storage.digits) ?? .other(text)
    }

    /// The revision of a value.
    public init(of value: PreferenceValue) {
        var hasher = FNV1a()
        hasher.add(value)
        storage = .digits(hasher.state)
    }

    /// The revision text.
    public var description: String { text }

    /// The revision encoding into a single `String`.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Appends the revision as a JSON string, quotes included.
    package func writeJSON(into buffer: inout [UInt8]) {
        switch storage {
        case .digits(let value):
            buffer.append(UInt8(ascii: "\""))
            Self.appendDigits(of: value, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        case .other(let text):
            JSONWriter.writeString(text, into: &buffer)
        }
    }

    /// Appends sixteen lower-case digits, zero-padded.
    private static func appendDigits(of value: UInt64, to buffer: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for index in 0..<16 {
                buffer.append(digits[Int((value >> (60 - 4 * UInt64(index))) & 0xF)])
            }
        }
    }

    /// The number sixteen lowercase hex digits write; nil for any other text.
    private static func digits(of text: String) -> UInt64? {
        var value: UInt64 = 0
        var count = 0
        for byte in text.utf8 {
            count += 1
            guard count <= 16 else { return nil }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return count == 16 ? value : nil
    }
}

private struct FNV1a {
    private(set) var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func byte(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    mutating func word(_ word: UInt64) {
        var hash = state
        var remaining = word
        for _ in 0..<8 {
            hash = (hash ^ (remaining & 0xff)) &* 0x0000_0100_0000_01b3
            remaining >>= 8
        }
        state = hash
    }

    mutating func bytes<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        // Contiguous storage (native strings, arrays, most Data) takes the tight loop.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            var hash = state
            for value in buffer {
                hash = (hash ^ UInt64(value)) &* 0x0000_0100_0000_01b3
            }
            state = hash
            word(UInt64(buffer.count))
        }
        if done != nil { return }
        var count: UInt64 = 0
        for value in bytes {
            byte(value)
            count += 1
        }
        word(count)
    }

    mutating func add(_ value: PreferenceValue) {
        switch value {
        case .string(let text):
            byte(1)
            bytes(text.utf8)
        case .integer(let number):
            byte(2)
            word(UInt64(bitPattern: number))
        case .real(let number):
            byte(3)
            word(number.bitPattern)
        case .boolean(let flag):
            byte(4)
            byte(flag ? 1 : 0)
        case .date(let date):
            byte(5)
            word(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data):
            byte(6)
            bytes(data)
        case .array(let values):
            byte(7)
            word(UInt64(values.count))
            for element in values { add(element) }
        case .dictionary(let values):
            byte(8)
            word(UInt64(values.count))
            for key in values.keys.sorted() {
                bytes(key.utf8)
                if let element = values[key] { add(element) }
            }
        case .bigNumber(let number):
            byte(number.kind == .integer ? 9 : 10)
            bytes(number.literal.utf8)
        }
    }
}
