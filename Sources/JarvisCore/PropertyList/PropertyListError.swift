/// Why a property list could not be read or written, and where.
///
/// The codec throws only this type, never traps: a damaged, hostile or oversized file gives a
/// ``Code`` and a message saying what is wrong and what to do. ``Code`` is an extensible
/// struct, so new codes never break a caller's `switch`.
package struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    package struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's name.
        package var rawValue: String
        /// A code by name.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// Neither `bplist00` nor XML (OpenStep text, JSON, anything else).
        package static let unknownFormat = Code(rawValue: "unknownFormat")
        /// The bytes break the format's rules (cut short, bad offsets, bad XML).
        package static let damaged = Code(rawValue: "damaged")
        /// An object refers to itself through its own contents.
        package static let cycle = Code(rawValue: "cycle")
        /// Arrays and dictionaries nest deeper than the limit.
        package static let tooDeep = Code(rawValue: "tooDeep")
        /// Reading would take more memory than the limit allows.
        package static let tooLarge = Code(rawValue: "tooLarge")
        /// One dictionary holds one key name twice (or in two Unicode spellings of one name).
        package static let duplicateKey = Code(rawValue: "duplicateKey")
        /// A value the format cannot hold (an XML string with a control character, a date
        /// XML cannot write, a set or a null in a binary plist).
        package static let unsupported = Code(rawValue: "unsupported")
    }

    /// The kind of problem.
    package var code: Code
    /// What was wrong, phrased so the reader knows what to fix.
    package var message: String
    /// The byte offset of the problem in the input, when reading.
    package var offset: Int?
    /// For `.tooLarge` when reading: what the value would expand to in memory, as far as it
    /// was counted (`Int.max` when past counting).
    package var expandedSize: Int?

    /// An error with a code, a message and (when reading) a byte offset.
    package init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// The message, with the byte offset when there is one.
    package var description: String {
        offset.map { "\(message) (at byte \($0))" } ?? message
    }
}
