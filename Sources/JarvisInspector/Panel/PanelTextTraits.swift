/// How a text field of the panel behaves for what it edits: the keyboard, the help a keyboard
/// may give (autocorrection, capitals, smart quotes), and how many lines it shows.
///
/// A name, a number, base64 or JSON is read by a machine: a curly quote or a capital the
/// keyboard added breaks it, so those fields get no help and names, base64 and JSON an ASCII
/// keyboard. A text value is written by a person in any script: it gets the default keyboard
/// (Japanese, Cyrillic, emoji), and no autocorrection either, since the stored string must be
/// what was typed. A search field matches stored text exactly: no help of any kind.
public struct PanelTextTraits: Sendable, Hashable {
    /// What a field edits.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A key's name.
        case name
        /// An integer or a real number.
        case number
        /// A string value: any script.
        case text
        /// Bytes as base64.
        case base64
        /// An array or a dictionary as JSON.
        case json
        /// A search of keys and values.
        case search
    }

    /// Which keyboard a field asks for.
    public enum Keyboard: String, Sendable, Hashable {
        /// The user's own keyboards, every script.
        case standard
        /// ASCII letters, digits and punctuation only.
        case ascii
        /// Digits, a minus sign and the decimal separators.
        case numbers
    }

    /// The keyboard.
    public var keyboard: Keyboard
    /// Whether the keyboard may autocorrect, capitalise, check spelling or curl quotes and
    /// dashes; false for every field of the panel.
    public var allowsTypingHelp: Bool
    /// Whether the field can span several lines.
    public var isMultiline: Bool

    /// The traits of a field of `kind`.
    public init(_ kind: Kind) {
        switch kind {
        case .text, .search: keyboard = .standard
        case .number: keyboard = .numbers
        case .name, .base64, .json: keyboard = .ascii
        }
        allowsTypingHelp = false
        isMultiline = kind == .text || kind == .base64 || kind == .json
    }

    /// The fewest and most lines a multi-line editor shows; past the most it scrolls.
    public static let lineRange = 1...8

    /// How many lines an editor of `text` shows: one per line of the text, a long line
    /// counted as the lines it wraps to at `columns` characters, within ``lineRange``. The
    /// editor grows as the value does, so the face asks again on every change.
    public static func lines(for text: String, columns: Int) -> Int {
        let width = max(1, columns)
        var lines = 0
        var column = 0
        // Stops at the most lines shown: a 10 MB value costs no more than a short one.
        for character in text {
            if character == "\n" {
                lines += max(1, (column + width - 1) / width)
                column = 0
            } else {
                column += 1
            }
            if lines >= lineRange.upperBound { return lineRange.upperBound }
        }
        lines += max(1, (column + width - 1) / width)
        return min(lineRange.upperBound, max(lineRange.lowerBound, lines))
    }
}

extension PanelTextTraits {
    /// A search as typed, with the quotes a keyboard curled made straight again.
    ///
    /// SwiftUI's `searchable` field offers no way to turn smart quotes off, so `It's` arrives
    /// as `It’s` and finds nothing stored with a straight apostrophe. Stored text holds straight
    /// quotes far more often than curly ones; a curly one is still found with `?` (`It?s`).
    public static func straightened(_ search: String) -> String {
        guard search.contains(where: { "‘’“”".contains($0) }) else { return search }
        return String(
            search.map { character -> Character in
                switch character {
                case "‘", "’": return "'"
                case "“", "”": return "\""
                default: return character
                }
            })
    }
}
