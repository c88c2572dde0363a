import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis history`: the agent's journal of changes with their values (what `jarvis undo`
/// takes back), or with `--audit` its audit trail of sets, deletes, reveals and exports.
enum HistoryCommand: Command {
    static let name = "history"
    static let summary = "show what changed, old -> new, who did it and whether it can be\nundone (--audit: the audit trail with reveals)"
    static let usage = """
        jarvis history [CONTAINER] [--scanner ID] [--key PATTERN] [--limit N]
                              [--json]
        jarvis history --audit [CONTAINER] [--scanner ID] [--key PATTERN]
                              [--action set|delete|reveal|export] [--limit N] [--json]

          CONTAINER        only this container (a glob), optionally SCANNER:CONTAINER
          --key PATTERN    only keys matching this glob
          --limit N        the newest N entries (default 100)
          --audit          the audit trail instead: who set, deleted, revealed or
                           exported what, with revisions (the agent keeps the last
                           1,000 records)
          --action ACTION  with --audit: only sets, deletes, reveals or exports

        Each journal entry shows its ID (for `jarvis undo ID`), the value before and
        after (a secret's masked), who made the change ("outside" for the program
        itself or another process) and whether it can still be undone.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let scanner = arguments.option("--scanner")
        let key = arguments.option("--key")
        let action = arguments.option("--action")
        let limitText = arguments.option("--limit")
        let audit = arguments.flag("--audit") || action != nil
        try arguments.finish(maxPositionals: 1, command: name)
        if !audit {
            try JournalHistory.run(
                container: arguments.positionals.first, scanner: scanner, key: key, limit: limitText, context: context)
            return
        }
        var params = Wire.HistoryParams()
        if let limitText {
            guard let limit = Int(limitText), limit > 0 else {
                throw UsageError("--limit needs a positive number", command: name)
            }
            params.limit = limit
        }
        if let action {
            guard ["set", "delete", "reveal", "export"].contains(action) else {
                throw UsageError("--action is one of set, delete, reveal, export", command: name)
            }
            params.action = action
        }
        let client = try context.connect()
        (params.scanner, params.container) = try context.filters(
            container: arguments.positionals.first, scanner: scanner)
        params.key = key
        let page = try client.history(params)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(page.json) + [0x0A])
            return
        }
        if page.records.isEmpty {
            Terminal.out("No changes or reveals recorded yet.")
        }
        for record in page.records {
            let safe = Terminal.escaped
            let line = HistoryLine.fitted(
                time: record.time, action: safe(record.action.rawValue),
                place: safe("\(record.address.scanner):\(record.address.container)"),
                key: safe(record.address.key + (record.pointer ?? "")), client: record.client.map(safe),
                connection: safe("\(record.transport.rawValue) \(record.peer)"),
                revisions: record.count.map { "\($0) secret(s) sent in clear" }
                    ?? safe("\(record.oldRevision ?? "none") -> \(record.newRevision ?? "none")"),
                width: Terminal.width)
            Terminal.out(
                line.time + line.gap + Terminal.bold(line.action) + line.place + " " + Terminal.cyan(line.key) + line.who
                    + Terminal.dim(line.revisions))
        }
    }
}
