import Foundation

/// A short token that changes whenever a stored value changes.
///
/// It is a 64-bit FNV-1a hash of the value's type-tagged canonical bytes, so it needs no
/// stored state, is the same in every process that reads the same value, and a client can
/// send it back as `expectedRevision` to write only if nobody changed the value meanwhile.
public struct Revision: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Sixteen lowercase hex digits.
    public let text: String

    /// Wraps revision text received from a client.
    public init(_ text: String) {
        self.text = text
    }

    /// The revision of a value.
    public init(of value: PreferenceValue) {
        var hasher = FNV1a()
        hasher.add(value)
        text = hasher.hexDigest
    }

    /// The revision text.
    public var description: String { text }

    /// The revision encoding into a single `String`.
    public init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
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

    var hexDigest: String {
        // Sixteen lower-case digits, zero-padded, written directly (made for every item served).
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                buffer[index] = digits.utf8Start[Int((state >> (60 - 4 * UInt64(index))) & 0xF)]
            }
            return 16
        }
    }
}
