import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis restore`: every key changed since a moment put back, as one change.
enum RestoreCommand: Command {
    static let name = "restore"
    static let summary = "put every key changed since a time or journal entry back as it was,\nas one change"
    static let usage = """
        jarvis restore --to TIME|ID [CONTAINER...] [--dry-run]

          --to TIME|ID   a journal entry's ID (`jarvis history`): every key is left as
                         that entry left it (every later change is taken back, the
                         entry stays; 0 takes back every entry), an ISO 8601 time
                         (2026-11-28T10:00:00Z), or how long ago: 30s, 10m, 2h, 1d
          CONTAINER      only these containers (globs, optionally SCANNER:CONTAINER)
          --dry-run      list what would be added, changed and removed, and write
                         nothing

        Each key goes back to the value it had then, written only if nobody changed it
        while the restore runs; if any write is refused, the keys already written are
        put back and the exit status is 1. One `jarvis undo` takes it all back.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let dryRun = arguments.flag("--dry-run")
        guard let to = arguments.option("--to") else {
            throw UsageError("restore needs --to TIME or --to ID", command: name)
        }
        try arguments.finish(maxPositionals: 64, command: name)
        var params = Wire.RestoreParams(containers: arguments.positionals, dryRun: dryRun)
        if let id = Int64(to), id >= 0 {
            params.toEntry = id
        } else if let date = DateText.parse(to) ?? ago(to) {
            params.toTime = date
        } else {
            throw UsageError(
                "--to takes a journal entry's ID, an ISO 8601 time or how long ago (10m, 2h)", command: name)
        }
        let client = try context.connect()
        let result = try client.restore(params)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(result.json) + [0x0A])
            return
        }
        if result.changes.isEmpty {
            Terminal.out("Nothing to restore: no key changed since then.")
            return
        }
        for change in result.changes {
            let place = Terminal.escaped("\(change.address.scanner):\(change.address.container) \(change.address.key)")
            let what: String
            // What the line leaves for values once the place is shown whole.
            let room = max(20, HistoryText.width - 14 - place.count)
            switch change.kind {
            case "added": what = "added    \(place) = \(HistoryText.value(change.then, limit: room))"
            case "removed": what = "removed  \(place) (was \(HistoryText.value(change.now, limit: room - 6)))"
            default:
                let (now, then) = HistoryText.pair(change.now, change.then, limit: max(10, (room - 3) / 2))
                what = "changed  \(place): \(now) → \(then)"
            }
            Terminal.out("  " + what)
        }
        let count = result.changes.count == 1 ? "1 key" : "\(result.changes.count) keys"
        Terminal.out(
            dryRun ? "would restore \(count) (dry run: nothing was changed)" : "restored \(count) as one change (one jarvis undo takes it back)")
    }

    /// `30s`, `10m`, `2h`, `1d` before now.
    private static func ago(_ text: String) -> Date? {
        guard let unit = text.last, let amount = Double(text.dropLast()), amount >= 0, amount < 1e7 else {
            return nil
        }
        let seconds: Double
        switch unit {
        case "s": seconds = amount
        case "m": seconds = amount * 60
        case "h": seconds = amount * 3600
        case "d": seconds = amount * 86_400
        default: return nil
        }
        return Date().addingTimeInterval(-seconds)
    }
}
