import JarvisCore
import JarvisRemote

/// `jarvis history`: the agent's audit trail of sets, deletes and secret reveals.
enum HistoryCommand: Command {
    static let name = "history"
    static let summary = "show who changed or revealed what through the agent (its audit trail)"
    static let usage = """
        jarvis history [CONTAINER] [--scanner ID] [--key PATTERN] [--action set|delete|reveal] [--limit N] [--json]

          CONTAINER        only this container (a glob), optionally SCANNER:CONTAINER
          --key PATTERN    only keys matching this glob
          --action ACTION  only sets, deletes or reveals
          --limit N        the newest N records (default 100; the agent keeps the last 1,000)
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        var scanner = arguments.option("--scanner")
        let key = arguments.option("--key")
        let action = arguments.option("--action")
        let limitText = arguments.option("--limit")
        try arguments.finish(maxPositionals: 1, command: name)
        var params = JSONObject()
        if let limitText {
            guard let limit = Int(limitText), limit > 0 else {
                throw UsageError("--limit needs a positive number", command: name)
            }
            params["limit"] = .number(JSONNumber(limit))
        }
        if let action {
            guard ["set", "delete", "reveal"].contains(action) else {
                throw UsageError("--action is one of set, delete, reveal", command: name)
            }
            params["action"] = .string(action)
        }
        let client = try context.connect()
        let container: String?
        (scanner, container) = try context.filters(container: arguments.positionals.first, scanner: scanner)
        if let container { params["container"] = .string(container) }
        if let scanner { params["scanner"] = .string(scanner) }
        if let key { params["key"] = .string(key) }
        let result = try client.call("history", params)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(result) + [0x0A])
            return
        }
        let records = result["records"]?.arrayValue ?? []
        if records.isEmpty {
            Terminal.out("No changes or reveals recorded yet.")
        }
        for record in records {
            let text = { (name: String) in record[name]?.stringValue ?? "" }
            let who = (record["client"]?.stringValue.map { "\($0) " } ?? "") + "(\(text("transport")) \(text("peer")))"
            let revisions =
                "\(record["oldRevision"]?.stringValue ?? "none") -> \(record["newRevision"]?.stringValue ?? "none")"
            Terminal.out(
                "\(text("time"))  " + Terminal.bold(Terminal.pad(text("action"), 7))
                    + "\(text("scanner")):\(text("container")) "
                    + Terminal.cyan(text("key")) + Terminal.dim("  \(revisions)  by \(who)"))
        }
    }
}
