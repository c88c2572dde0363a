import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis undo`: takes back a change by a guarded forward write.
enum UndoCommand: Command {
    static let fansOut = true
    static let name = "undo"
    static let summary = "take back the newest change (or entry ID) if nothing changed the key\nsince; again steps further back"
    static let usage = """
        jarvis undo [ID | CONTAINER] [--key KEY] [--dry-run] [--force-at REV]

          ID                    a journal entry (`jarvis history` shows them), an
                                outside change included; without it, the newest change
                                made through Jarvis not yet taken back (never the
                                program's own write). Run again to step further back.
          CONTAINER             only a change in this container (or SCANNER:CONTAINER)
          --key KEY             only a change of this key
          --dry-run             say what would be written, and write nothing
          --force-at REV        write even though the key changed since the entry,
                                provided it is at REV now (a refused undo names it)

        The earlier value is written only if the key still has the revision the entry
        left; otherwise nothing is written, the values on both sides are shown and the
        exit status is 1. Undoing a delete writes only where the key is still absent.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try UndoRun.run(&arguments, context: context, redo: false, command: name)
    }
}

/// `jarvis redo`: takes back the newest undo.
enum RedoCommand: Command {
    static let fansOut = true
    static let name = "redo"
    static let summary = "put back what the last undo took (or undo entry ID)"
    static let usage = """
        jarvis redo [ID | CONTAINER] [--key KEY] [--dry-run] [--force-at REV]

          ID                    an undo's journal entry; without it, the newest undo
                                not yet taken back
          CONTAINER             only an undo in this container (or SCANNER:CONTAINER)
          --key KEY             only an undo of this key
          --dry-run             say what would be written, and write nothing
          --force-at REV        write even though the key changed since the undo,
                                provided it is at REV now
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try UndoRun.run(&arguments, context: context, redo: true, command: name)
    }
}

/// What `undo` and `redo` share.
enum UndoRun {
    static func run(_ arguments: inout Arguments, context: Context, redo: Bool, command: String) throws {
        let dryRun = arguments.flag("--dry-run")
        let forceAt = arguments.option("--force-at")
        let key = arguments.option("--key")
        try arguments.finish(maxPositionals: 1, command: command)
        var id: Int64?
        var container: String?
        if let text = arguments.positionals.first {
            if let number = Int64(text) {
                guard number > 0 else {
                    throw UsageError("ID is a journal entry's number, as `jarvis history` shows it", command: command)
                }
                guard key == nil else {
                    throw UsageError("--key chooses the newest change of a key; an ID names its entry already", command: command)
                }
                id = number
            } else {
                container = text
            }
        }
        if let fleet = try context.fleet() {
            guard id == nil, forceAt == nil, key == nil, container == nil else {
                throw UsageError(
                    "entry IDs and revisions belong to one agent; with --agents, \(command) takes back each agent's newest \(redo ? "undo" : "change")",
                    command: command)
            }
            FleetWrites.undo(fleet, redo: redo, dryRun: dryRun, context: context)
        }
        let client = try context.connect()
        let result = try client.undo(
            Wire.UndoParams(id: id, dryRun: dryRun, forceAt: forceAt, key: key, container: container), redo: redo)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(result.json) + [0x0A])
        } else {
            Terminal.out(describe(result, redo: redo))
        }
        if result.conflict { exit(1) }
    }

    static func describe(_ result: Wire.UndoResult, redo: Bool) -> String {
        if result.undoneGroup.count > 1 { return describeGroup(result, redo: redo) }
        let entry = result.undone
        let place = Terminal.escaped(
            "\(entry.address.scanner):\(entry.address.container) \(entry.address.key)\(entry.pointer ?? "")")
        let room = max(24, (HistoryText.width - 40 - place.count) / 2)
        let what = result.restore.map { "\(place) back to \(HistoryText.value($0, limit: room))" } ?? "\(place) removed again"
        let now = result.item.map { ValueText.preview($0, limit: max(40, room)) } ?? "absent"
        if result.dryRun {
            if result.conflict {
                return
                    "would not \(redo ? "redo" : "undo") entry \(entry.id): \(place) changed since (now \(now), revision \(result.item?.revision.text ?? "absent")); to write anyway: jarvis \(redo ? "redo" : "undo") \(entry.id) --force-at \(result.item?.revision.text ?? Revision.absent.text)"
            }
            return "would \(redo ? "redo" : "undo") entry \(entry.id): \(what) (now \(now)); dry run: nothing was changed"
        }
        let next = redo ? "jarvis undo takes it back again" : "jarvis redo puts it back"
        return "\(redo ? "redid" : "undid") entry \(entry.id): \(what) (entry \(result.entry?.id ?? 0); \(next))"
    }

    /// A change of several keys taken back whole: one line naming them.
    private static func describeGroup(_ result: Wire.UndoResult, redo: Bool) -> String {
        let word = redo ? "redo" : "undo"
        let group = result.undoneGroup
        let first = group[0]
        let keys = JournalHistory.keys(group, limit: max(30, HistoryText.width - 50))
        let article = first.action.hasPrefix("u") ? "an" : "a"
        let change = "entry \(first.group ?? first.id), \(article) \(first.action) of \(group.count) keys (\(keys))"
        if result.dryRun {
            if result.conflict {
                let entry = result.undone
                let place = Terminal.escaped("\(entry.address.scanner):\(entry.address.container) \(entry.address.key)")
                return "would not \(word) \(change): \(place) changed since (now revision \(result.item?.revision.text ?? "absent")); nothing of it would be written"
            }
            return "would \(word) \(change); dry run: nothing was changed"
        }
        let next = redo ? "jarvis undo takes it back again" : "jarvis redo puts it back"
        let written = result.entries.map(\.id)
        let span = written.count > 1 ? "entries \(written[0])–\(written[written.count - 1])" : "entry \(written.first ?? 0)"
        return "\(redo ? "redid" : "undid") \(change) as one change (\(span); \(next))"
    }
}
