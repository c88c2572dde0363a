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
        for row in rows(page.entries) {
            let entry = row[0]
            let here = Terminal.escaped("\(entry.address.scanner):\(entry.address.container)")
            if here != place {
                Terminal.out(Terminal.bold(here))
                place = here
            }
            Terminal.out(row.count > 1 ? line(group: row) : line(entry))
        }
    }

    /// The page's rows: each entry alone, except a change of several keys (entries sharing a
    /// `group`), which is one row where its first entry stands.
    static func rows(_ entries: [Wire.JournalEntry]) -> [[Wire.JournalEntry]] {
        var members: [Int64: [Wire.JournalEntry]] = [:]
        for entry in entries { if let group = entry.group { members[group, default: []].append(entry) } }
        var rows: [[Wire.JournalEntry]] = []
        var shown: Set<Int64> = []
        for entry in entries {
            guard let group = entry.group, let all = members[group], all.count > 1 else {
                rows.append([entry])
                continue
            }
            if shown.insert(group).inserted { rows.append(all) }
        }
        return rows
    }

    /// The keys of a group's entries, each once, within `limit` characters: `key` alone when
    /// they share one container, `container key` otherwise.
    static func keys(_ group: [Wire.JournalEntry], limit: Int) -> String {
        let oneContainer = Set(group.map { "\($0.address.scanner):\($0.address.container)" }).count == 1
        var seen: Set<String> = []
        let names = group.compactMap { entry -> String? in
            let name = oneContainer ? entry.address.key : "\(entry.address.container) \(entry.address.key)"
            return seen.insert(name).inserted ? Terminal.escaped(name) : nil
        }
        return fit(names.joined(separator: ", "), limit).trimmingCharacters(in: .whitespaces)
    }

    /// A change of several keys in one line, within `width` columns (80 at the least):
    /// `ID  TIME  ACTION N keys: KEYS…  WHO  STATE`, the state of the change as a whole.
    static func line(group: [Wire.JournalEntry], width: Int = HistoryText.width) -> String {
        let width = max(80, width)
        let first = group[0]
        let id = fit(String(first.id), 4, right: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(from: first.time)
        // The change's own entries (a refused one's rollbacks left out) count its keys.
        let own = group.filter { $0.action != "rollback" }
        let rolledBack = own.contains { $0.reason?.hasPrefix("refused part way") == true }
        let state: String
        if rolledBack {
            state = "refused"
        } else if let by = own.compactMap(\.undoneBy).min(), own.allSatisfy({ $0.undoneBy != nil }) {
            // The undo's first entry, which its own line shows.
            state = "undone #\(by)"
        } else if own.contains(where: \.undoable) {
            state = first.action == "undo" ? "can redo" : "can undo"
        } else {
            state = "final"
        }
        let client = first.transport == nil ? "outside" : Terminal.escaped(first.client ?? first.transport ?? "")
        let whoWidth = min(max(10, client.count), 10 + (width - 80) / 8)
        let head = "\(first.action) \(own.count) key\(own.count == 1 ? "" : "s"): "
        // id, time, the spaces between the columns, and the widest state.
        let room = width - (4 + 1 + 8 + 2 + 1 + whoWidth + 1 + 11)
        let what = fit(head + keys(own, limit: max(10, room - head.count)), room)
        return "\(id) \(time)  \(what) \(fit(client, whoWidth)) \(Terminal.dim(state))"
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
