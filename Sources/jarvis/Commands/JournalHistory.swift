import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis history` without `--audit`: the journal's entries, one line each within 80 columns
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

    /// One entry's line, at most 80 columns.
    static func line(_ entry: Wire.JournalEntry) -> String {
        let id = fit(String(entry.id), 4, right: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(from: entry.time)
        let key = fit(Terminal.escaped(entry.address.key + (entry.pointer ?? "")), 17)
        let old = fit(HistoryText.value(entry.before, limit: 10), 10)
        let new = fit(HistoryText.value(entry.after, limit: 10), 10)
        let who = fit(
            entry.transport == nil ? "outside" : Terminal.escaped(entry.client ?? entry.transport ?? ""), 10)
        let state: String
        if let by = entry.undoneBy {
            state = "undone #\(by)"
        } else if entry.undoable {
            state = entry.action == "undo" ? "can redo" : "can undo"
        } else {
            state = "final"
        }
        return "\(id) \(time)  \(key) \(old) → \(new) \(who) \(Terminal.dim(state))"
    }

    /// `text` cut (with `…`) or padded to exactly `width` characters.
    static func fit(_ text: String, _ width: Int, right: Bool = false) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        let pad = String(repeating: " ", count: width - text.count)
        return right ? pad + text : text + pad
    }
}
