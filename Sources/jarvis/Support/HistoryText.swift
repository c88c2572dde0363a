import JarvisCore
import JarvisRemote

/// How `history`, `undo` and `redo` show a journal's values: short, escaped, a secret's masked.
enum HistoryText {
    /// A journal value for one line: its preview, or `••••` for a secret's.
    static func value(_ value: Wire.JournalValue?, limit: Int = 24) -> String {
        guard let value else { return "(absent)" }
        if let bytes = value.bytes { return "(\(bytes / 1000) KB \(value.type.rawValue))" }
        guard let shown = value.value else { return "•••• (\(value.type.rawValue))" }
        return ValueText.short(shown, limit: limit)
    }
}
