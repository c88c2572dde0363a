import Foundation
import JarvisCore
import JarvisRemote

/// How `history`, `undo` and `redo` show a journal's values: escaped, a secret's masked, and
/// for two values too long to show whole, the part where they differ.
enum HistoryText {
    /// How much of a value is read before it is cut: far more than any line shows.
    static let readLimit = 4096

    /// The columns these lines fit: `COLUMNS` when set, else the terminal's, else 80 (piped).
    static var width: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return Terminal.width ?? 80
    }

    /// A journal value for one line: its preview, or `••••` for a secret's.
    static func value(_ value: Wire.JournalValue?, limit: Int = 24) -> String {
        guard let value else { return "(absent)" }
        if let bytes = value.bytes { return "(\(bytes / 1000) KB \(value.type.rawValue))" }
        guard let shown = value.value else { return "•••• (\(value.type.rawValue))" }
        return ValueText.short(shown, limit: limit)
    }

    /// Two values of one change, each at most `limit` characters: whole where they fit,
    /// otherwise each cut around the part where they differ, with what they share given way
    /// as `…` (`{… "count": 3 …}` beside `{… "count": 4 …}`).
    static func pair(_ old: Wire.JournalValue?, _ new: Wire.JournalValue?, limit: Int) -> (String, String) {
        let before = value(old, limit: readLimit)
        let after = value(new, limit: readLimit)
        guard before.count > limit || after.count > limit else { return (before, after) }
        let one = Array(before)
        let two = Array(after)
        var common = 0
        while common < min(one.count, two.count), one[common] == two[common] { common += 1 }
        var shared = 0
        while shared < min(one.count, two.count) - common, one[one.count - 1 - shared] == two[two.count - 1 - shared] {
            shared += 1
        }
        return (around(one, from: common, toEnd: shared, limit: limit), around(two, from: common, toEnd: shared, limit: limit))
    }

    /// `text` cut to `limit` characters keeping its part from `start` to `shared` characters
    /// before its end, with a little of what surrounds it.
    static func around(_ text: [Character], from start: Int, toEnd shared: Int, limit: Int) -> String {
        guard text.count > limit else { return String(text) }
        guard limit >= 8 else { return String(text.prefix(max(0, limit - 1))) + "…" }
        let end = text.count - shared
        let changed = end - start
        // Context on each side of the change, as much as the limit leaves (the ends cost up to 3).
        let context = max(0, (limit - 6 - changed) / 2)
        var low = max(0, start - context)
        var high = min(text.count, end + context)
        if changed + 6 > limit {
            // The change itself is too long: its head shows.
            low = start
            high = min(text.count, start + limit - 6)
        }
        var shown = String(text[low..<high])
        if low > 0 { shown = (low > 1 ? String(text[0]) + "… " : String(text[0])) + shown }
        if high < text.count { shown += (high < text.count - 1 ? " …" : "") + String(text[text.count - 1]) }
        return shown.count > limit ? String(shown.prefix(limit - 1)) + "…" : shown
    }
}
