/// A property list as its file holds it: every type the binary (`bplist00`) and XML formats
/// have, dictionaries in the order their keys were written.
///
/// This is the value ``PropertyListReader`` reads and ``PropertyListWriter`` writes, Jarvis's
/// own codec (Foundation's `PropertyListSerialization` is not used): keeping the key order and
/// every integer, real and date exactly as stored is what lets a one-key change leave the rest
/// of a file as it was. Values are plain Swift values, `Sendable` and cheap to copy.
package enum PropertyList: Sendable, Hashable {
    /// Text (`<string>`, binary ASCII or UTF-16 strings).
    case string(String)
    /// A signed integer, -2^63 to 2^63-1.
    case integer(Int64)
    /// An unsigned integer above `Int64.max` (what `UserDefaults` stores for a large `UInt64`);
    /// integers that fit `Int64` are always ``integer(_:)``.
    case unsigned(UInt64)
    /// A floating-point number.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// A date, as seconds since 2001-01-01 00:00:00 UTC (the formats' own reference).
    case date(Double)
    /// Bytes.
    case data([UInt8])
    /// An ordered list.
    case array([PropertyList])
    /// Key-value pairs in the order the file holds them; keys are unique.
    case dictionary([Member])
    /// A keyed archiver's object reference (binary plists only): read and written back as it
    /// was found, shown as `{"CF$UID": n}` as `plutil` shows it, never edited.
    case uid(UInt64)

    /// One key and its value in a ``PropertyList/dictionary(_:)``.
    package struct Member: Sendable, Hashable {
        /// The key.
        package var key: String
        /// The value.
        package var value: PropertyList

        /// A key and its value.
        package init(_ key: String, _ value: PropertyList) {
            self.key = key
            self.value = value
        }
    }

    /// The two formats the codec reads and writes.
    package enum Format: String, Sendable, Hashable {
        /// `bplist00`, as Apple's preferences daemon writes suites.
        case binary
        /// The XML 1.0 format with Apple's DTD.
        case xml
    }

    /// What a value is, in words for messages ("a string", "an array").
    package var kindDescription: String {
        switch self {
        case .string: "a string"
        case .integer, .unsigned: "an integer"
        case .real: "a real"
        case .boolean: "a boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .uid: "a keyed-archiver UID"
        }
    }

    /// An integer of any width a property list holds: ``integer(_:)`` when it fits `Int64`.
    package static func integer(unsigned value: UInt64) -> PropertyList {
        value > UInt64(Int64.max) ? .unsigned(value) : .integer(Int64(value))
    }
}
