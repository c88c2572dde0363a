import Foundation

/// One `jarvis history` line, fitted to a terminal's width. The time, the action, the place
/// and who made the change always stay; what matters less gives way first: the revisions, then
/// the connection's detail (`unix pid 4711 uid 1000`), then the year and the milliseconds of the
/// time, then the middle of the container's name, then the middle of the key.
struct HistoryLine: Equatable {
    /// `2024-01-15T10:00:00.250Z`, or `01-15 10:00:00` when the line is short of room.
    var time: String
    /// `set`, `delete`, `reveal`, padded to one width.
    var action: String
    /// `scanner:container`.
    var place: String
    /// The key, with the pointer of a nested edit.
    var key: String
    /// `by NAME (transport peer)`, or what is left of it.
    var who: String
    /// `  old -> new`, or nothing.
    var revisions: String
    /// What follows the time: two spaces, or one when the line is short of room.
    var gap = "  "

    /// The whole line, as plain text.
    var text: String { time + gap + action + place + " " + key + who + revisions }

    /// The parts of a record's line, each already escaped for the terminal, fitted to `width`
    /// columns (nil: whole).
    static func fitted(
        time: Date, action: String, place: String, key: String, client: String?, connection: String,
        revisions: String, width: Int?
    ) -> HistoryLine {
        let padded = action.count >= 7 ? action + " " : action + String(repeating: " ", count: 7 - action.count)
        var line = HistoryLine(
            time: stamp(time, short: false), action: padded, place: place, key: key,
            who: client.map { "  by \($0) (\(connection))" } ?? "  by \(connection)", revisions: "  " + revisions)
        guard let width else { return line }
        if line.text.count > width { line.revisions = "" }
        if line.text.count > width, let client { line.who = "  by \(client)" }
        if line.text.count > width {
            line.time = stamp(time, short: true)
            line.gap = " "
            line.who = " by " + (client ?? connection)
        }
        if line.text.count > width {
            line.place = middle(line.place, keeping: max(8, line.place.count - (line.text.count - width)))
        }
        if line.text.count > width {
            line.key = middle(line.key, keeping: max(8, line.key.count - (line.text.count - width)))
        }
        return line
    }

    /// `text` cut to `count` characters by taking out its middle, marked with `…`.
    static func middle(_ text: String, keeping count: Int) -> String {
        guard text.count > count, count >= 3 else { return text }
        let head = (count - 1) / 2
        let tail = count - 1 - head
        return String(text.prefix(head)) + "…" + String(text.suffix(tail))
    }

    /// The time in UTC: to the millisecond, or without the year and milliseconds when short.
    static func stamp(_ date: Date, short: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = short ? "MM-dd HH:mm:ss" : "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter.string(from: date)
    }
}
