import Dispatch
import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis watch`: one line per change, as it happens, until Ctrl-C.
enum WatchCommand: Command {
    static let fansOut = true
    static let name = "watch"
    static let summary = "print changes as they happen (another client, another process,\nthe app itself)"
    static let usage = """
        jarvis watch [CONTAINER] [--scanner ID] [--key GLOB]
                            [--reveal] [--since N] [--json]

          CONTAINER        a container name or glob, optionally SCANNER:CONTAINER
          --scanner ID     only this scanner
          --key GLOB       only keys matching this glob
          --reveal         show secret values, where the agent allows it
          --since N        first replay the changes after sequence number N (from an
                           earlier watch)
          --json           one JSON object per change and line: sequence, time, kind,
                           address, item, old (a container's: kind, scanner, container,
                           problem)

        Runs until Ctrl-C. Each line shows the time, the kind (added, updated, removed),
        the address and old → new value; secrets stay masked unless revealed. A file
        that cannot be read (half-written, invalid) shows as unreadable with its
        problem, its keys kept; once fixed, as readable again, then what differs.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        var scanner = arguments.option("--scanner")
        let key = arguments.option("--key")
        let reveal = arguments.flag("--reveal")
        let sinceText = arguments.option("--since")
        try arguments.finish(maxPositionals: 1, command: name)
        var since: Int64?
        if let sinceText {
            guard let value = Int64(sinceText), value >= 0 else {
                throw UsageError("--since needs a sequence number (0 or more)", command: name)
            }
            since = value
        }
        if let fleet = try context.fleet() {
            let stop = stopOnSignals()
            defer { _ = stop }
            let (typedScanner, positional, since) = (scanner, arguments.positionals.first, since)
            FleetWatch.run(fleet, context: context, since: since) { agent, client in
                let (scanner, container) = try agent.filters(container: positional, scanner: typedScanner)
                return try client.watch(scanner: scanner, container: container, key: key, reveal: reveal, since: since)
            }
        }
        let client = try context.connect()
        let container: String?
        (scanner, container) = try context.filters(container: arguments.positionals.first, scanner: scanner)
        let stop = stopOnSignals()
        defer { _ = stop }
        let subscription = try client.watch(
            scanner: scanner, container: container, key: key, reveal: reveal, since: since)
        if subscription.resumed == false, let since {
            Terminal.err(
                "jarvis watch: the changes after \(since) are no longer kept; run `jarvis ls` to see the current values"
            )
        }
        if !context.json {
            Terminal.err(Terminal.dim("watching from sequence \(subscription.sequence); Ctrl-C to stop"))
        }
        while true {
            guard let notification = try client.nextChange(timeout: nil) else { continue }
            if context.json {
                printJSON(notification)
            } else {
                printText(notification)
            }
        }
    }

    /// Ctrl-C and SIGTERM end the command with status 0; the terminal's modes were never changed.
    static func stopOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // Exit straight away: closing the client first would wake the reading thread with
            // "connection closed", which could exit with an error before this exit runs.
            source.setEventHandler { exit(0) }
            source.resume()
            return source
        }
    }

    static func printJSON(_ notification: ChangeNotification, agent: String? = nil) {
        let params = notification.params
        if let container = notification.container {
            var line: JSONObject = [
                "sequence": params["sequence"] ?? .null, "time": params["time"] ?? .null,
                "kind": .string(container.kind.rawValue), "scanner": .string(container.scanner),
                "container": .string(container.name),
            ]
            if let problem = container.problem { line["problem"] = .string(problem) }
            if let agent { line["agent"] = .string(agent) }
            Terminal.outBytes(JSONWriter.bytes(.object(line)) + [0x0A])
        }
        for change in notification.changes {
            var line: JSONObject = [
                "sequence": params["sequence"] ?? .null, "time": params["time"] ?? .null,
            ]
            for (name, value) in change.json.objectValue ?? [:] { line[name] = value }
            if let agent { line["agent"] = .string(agent) }
            // What changed inside a nested value, by pointer.
            if let inner = ValueText.innerChanges(old: change.old, new: change.item) {
                line["differences"] = ValueText.json(inner)
            }
            Terminal.outBytes(JSONWriter.bytes(.object(line)) + [0x0A])
        }
    }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter
    }()

    /// The kind column, padded and coloured.
    private static func word(_ kind: ChangeNotification.Change.Kind) -> String {
        let word = Terminal.pad(Terminal.escaped(kind.rawValue), 8)
        switch kind {
        case .added: return Terminal.green(word)
        case .removed: return Terminal.red(word)
        default: return Terminal.yellow(word)
        }
    }

    static func printText(_ notification: ChangeNotification, agent: String? = nil) {
        // With --agents each line starts with the agent it came from.
        let time =
            (agent.map { Terminal.cyan(Terminal.escaped($0)) + "  " } ?? "")
            + (notification.time.map { clock.string(from: $0) } ?? "--:--:--.---")
        if let container = notification.container {
            Terminal.out(containerLine(container, time: time, notification: notification, width: Terminal.width))
        }
        for change in notification.changes {
            let old = change.old.map { ValueText.preview($0, limit: 40) }
            let new = change.item.map { ValueText.preview($0, limit: 40) }
            let values: String
            switch (old, new) {
            case (let old?, let new?): values = "\(old) → \(new)"
            case (nil, let new?): values = "→ \(new)"
            case (let old?, nil): values = "\(old) → " + Terminal.dim("(removed)")
            case (nil, nil): values = ""
            }
            let kind = word(change.kind)
            let place = Terminal.cyan(Terminal.escaped("\(change.address.scanner):\(change.address.container)"))
            if let inner = ValueText.innerChanges(old: change.old, new: change.item) {
                // One line per place that changed inside: `profile/tags/0  swift → rust`; an
                // element appended or taken out reads as added or removed.
                for difference in inner {
                    let innerKind: ChangeNotification.Change.Kind =
                        difference.old == nil ? .added : difference.new == nil ? .removed : change.kind
                    Terminal.out(
                        Terminal.dim(time) + "  " + word(innerKind) + place
                            + " \(Terminal.escaped(change.address.key + difference.pointer.description))  "
                            + ValueText.arrow(difference) + Terminal.dim("  #\(notification.sequence)"))
                }
                continue
            }
            Terminal.out(
                Terminal.dim(time) + "  " + kind + place + " \(Terminal.escaped(change.address.key))  " + values
                    + Terminal.dim("  #\(notification.sequence)"))
        }
    }

    /// `12:03:04.123  unreadable files:app.json  not valid JSON: line 3, column 9: …  #5`, or
    /// `… readable files:app.json  again, 2 keys changed  #6`; the problem is cut to `width`.
    static func containerLine(
        _ container: ChangeNotification.ContainerChange, time: String, notification: ChangeNotification,
        width: Int?
    ) -> String {
        let place = Terminal.escaped("\(container.scanner):\(container.name)")
        let kind = Terminal.pad(Terminal.escaped(container.kind.rawValue), 8)
        let sequence = "  #\(notification.sequence)"
        let text: String
        switch container.kind {
        case .unreadable: text = Terminal.escaped(container.problem ?? "cannot be read")
        case .readable:
            let count = notification.changes.count
            text = "again, " + (count == 0 ? "no key changed" : count == 1 ? "1 key changed" : "\(count) keys changed")
        default: text = Terminal.escaped(container.problem ?? "")
        }
        let used = time.count + 2 + kind.count + place.count + 2 + sequence.count
        let fitted = Terminal.fit(text, width.map { max(20, $0 - used) })
        let painted = container.kind == .unreadable ? Terminal.red(kind) : Terminal.green(kind)
        return Terminal.dim(time) + "  " + painted + Terminal.cyan(place) + "  " + fitted + Terminal.dim(sequence)
    }
}
