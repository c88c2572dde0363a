import Foundation

/// Numbers as people type them: the locale's decimal separator (`2,5` in Germany) and the
/// minus signs keyboards produce (`−`, U+2212, and the dashes smart punctuation makes of `-`),
/// read as the plain text ``ValueDraft/value(from:)`` takes, and shown back the same way.
///
/// Grouping separators are not accepted (`1.000,5` is refused, not read as 1000.5 or 1.0005):
/// a number field offers no grouping, and a guess would store the wrong number.
public enum NumberText {
    /// Signs that mean minus at the start of a number or of an exponent.
    static let minusSigns: Set<Character> = ["\u{2212}", "\u{2013}", "\u{2014}", "\u{FE63}", "\u{FF0D}"]

    /// The typed text as plain number text: minus signs become `-`, the locale's decimal
    /// separator becomes `.`; a `.` is accepted in any locale.
    public static func plain(_ text: String, locale: Locale) -> String {
        let separator = locale.decimalSeparator ?? "."
        var output = ""
        output.reserveCapacity(text.count)
        for character in text.trimmingCharacters(in: .whitespaces) {
            if minusSigns.contains(character) {
                output.append("-")
            } else if separator != ".", String(character) == separator {
                output.append(".")
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// Plain number text (`-2.5`) as the locale writes it (`-2,5`), for an editor's first text.
    public static func localized(_ text: String, locale: Locale) -> String {
        let separator = locale.decimalSeparator ?? "."
        guard separator != "." else { return text }
        return text.replacingOccurrences(of: ".", with: separator)
    }
}

extension ValueDraft {
    /// Whether the editor takes a number, typed with ``NumberText``'s rules.
    public var isNumber: Bool { editor == .integer || editor == .real }

    /// The text the editor starts with in `locale`: numbers with the locale's decimal
    /// separator, a choice on an allowed value for a new key, a date that is a real date (the
    /// current minute for a new one), anything else as ``text``.
    public func startText(locale: Locale) -> String {
        if editor == .choice { return choiceStartText }
        if editor == .date, DateEditing.date(from: text) == nil { return DateEditing.text(DateEditing.start(text)) }
        return isNumber ? NumberText.localized(text, locale: locale) : text
    }

    /// What the user typed in `locale` as the text ``value(from:)`` reads: numbers in plain
    /// form, anything else unchanged.
    public func plainText(_ typed: String, locale: Locale) -> String {
        isNumber ? NumberText.plain(typed, locale: locale) : typed
    }
}
