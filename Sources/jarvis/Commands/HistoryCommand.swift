import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis history`: the agent's audit trail of sets, deletes, secret reveals and exports.
enum HistoryCommand: Command {
    static let name = "history"
    static let summary = "show who changed or revealed what through the agent (its audit\ntrail)"
    static let usage = """
        jarvis history [CONTAINER] [--scanner ID] [--key PATTERN]
                              [--action set|delete|reveal|export] [--limit N] [--json]

          CONTAINER        only this container (a glob), optionally SCANNER:CONTAINER
          --key PATTERN    only keys matching this glob
          --action ACTION  only sets, deletes, reveals or exports of secrets
          --limit N        the newest N records (default 100; the agent keeps the last
                           1,000)
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let scanner = arguments.option("--scanner")
        let key = arguments.option("--key")
        let action = arguments.option("--action")
        let limitText = arguments.option("--limit")
        try arguments.finish(maxPositionals: 1, command: name)
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
