import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis history` without `--audit`: the journal's entries, one line each within the terminal's width
/// (`ID  TIME  KEY  OLD → NEW  WHO  STATE`), under a line naming each container.
enum JournalHistory {
    static func run(container: String?, scanner: String?, key: String?, limit: String?, context: Context) throws {
        var params = Wire.JournalParams()
        if let limit {
            guard let number = Int(limit), number > 0, number <= 10_000 else {
                throw UsageError("--limit needs a positive number (at most 10000)", command: HistoryCommand.name)
            }
            params.limit = number
        }
        let client = try context.connect()
        (params.scanner, params.container) = try context.filters(container: container, scanner: scanner)
        params.key = key
        let page = try client.journal(params)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(page.json) + [0x0A])
            return
        }
        for problem in page.problems { Terminal.err("jarvis: journal: \(Terminal.escaped(problem))") }
        if page.entries.isEmpty {
            Terminal.out("No changes in the journal yet.")
            return
        }
        var place = ""
        for entry in page.entries {
            let here = Terminal.escaped("\(entry.address.scanner):\(entry.address.container)")
            if here != place {
                Terminal.out(Terminal.bold(here))
                place = here
            }
            Terminal.out(line(entry))
        }
    }

    /// One entry's line, within `width` columns (80 at the least): the key whole where it
    /// fits, the values sharing what is left, each cut around where they differ.
    static func line(_ entry: Wire.JournalEntry, width: Int = HistoryText.width) -> String {
        let width = max(80, width)
        let id = fit(String(entry.id), 4, right: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(from: entry.time)
        let state: String
        if let by = entry.undoneBy {
            state = "undone #\(by)"
        } else if entry.undoable {
            state = entry.action == "undo" ? "can redo" : "can undo"
        } else {
            state = "final"
        }
        let name = Terminal.escaped(entry.address.key + (entry.pointer ?? ""))
        let client = entry.transport == nil ? "outside" : Terminal.escaped(entry.client ?? entry.transport ?? "")
        let whoWidth = min(max(10, client.count), 10 + (width - 80) / 8)
        // id, time, the spaces and arrow between the columns, and the widest state.
        let fixed = 4 + 1 + 8 + 2 + 1 + 3 + 1 + whoWidth + 1 + 11
        let room = width - fixed
        // The key takes what it needs up to half the room; the values share the rest.
        let keyWidth = min(max(17, name.count), max(17, room / 2))
        let valueWidth = max(10, (room - 1 - keyWidth) / 2)
        let (before, after) = HistoryText.pair(entry.before, entry.after, limit: valueWidth)
        let key = fit(name, keyWidth)
        let who = fit(client, whoWidth)
        return "\(id) \(time)  \(key) \(fit(before, valueWidth)) → \(fit(after, valueWidth)) \(who) \(Terminal.dim(state))"
    }

    /// `text` cut (with `…`) or padded to exactly `width` characters.
    static func fit(_ text: String, _ width: Int, right: Bool = false) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        let pad = String(repeating: " ", count: width - text.count)
        return right ? pad + text : text + pad
    }
}
