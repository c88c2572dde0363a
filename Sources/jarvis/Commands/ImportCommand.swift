import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis import`: puts a snapshot's values back into an agent.
enum ImportCommand: Command {
    static let fansOut = true
    static let name = "import"
    static let summary = "apply a snapshot to an agent (--dry-run shows the diff)"
    static let usage = """
        jarvis import SNAPSHOT.json [--dry-run] [--partial] [--reveal]

          Compares the snapshot with the live values and writes the ones that differ,
          each with the revision it saw (a value somebody changed meanwhile is refused,
          not overwritten). Keys the snapshot lacks are left alone. Placeholders (a JSON
          null, a number out of range: items the agent showed only as a stand-in) are
          never written; each is listed as skipped. By default the import is one change:
          if the agent refuses any write, jarvis puts back what it already changed and
          says so (exit status 1).
          --dry-run   only print what would change; nothing is written
          --partial   keep going past refusals and keep what went through
          --reveal    compare secrets by value (the agent must allow revealing); without
                      it a secret in the snapshot is written, never compared, and its
                      current value is never printed
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let dryRun = arguments.flag("--dry-run")
        let partial = arguments.flag("--partial")
        let reveal = arguments.flag("--reveal")
        try arguments.finish(maxPositionals: 1, command: name)
        guard let path = arguments.positionals.first else {
            throw UsageError("import needs a snapshot file", command: name)
        }
        let snapshot = try SnapshotSide.read(file: path)
        if let fleet = try context.fleet() {
            FleetWrites.importSnapshot(
                fleet, snapshot: snapshot, dryRun: dryRun, partial: partial, reveal: reveal, context: context)
        }
        let client = try context.connect()
        let plan = try client.importPlan(for: snapshot, reveal: reveal)
        if dryRun {
            if context.json {
                Terminal.outBytes(JSONWriter.bytes(DiffCommand.json(plan.diff)) + [0x0A])
                return
            }
            for item in plan.diff.added {
                Terminal.out(Terminal.green("+ \(SnapshotSide.name(item.address)) = \(SnapshotSide.show(item))"))
            }
            for change in plan.diff.changed {
                Terminal.out(
                    Terminal.yellow(
                        "~ \(SnapshotSide.name(change.new.address)): \(SnapshotSide.show(change.old)) → \(SnapshotSide.show(change.new))"
                    ))
            }
            for item in plan.placeholders {
                Terminal.out(Terminal.dim("skip \(SnapshotSide.name(item.address)): \(skipReason)"))
            }
            Terminal.out(
                "dry run: \(plan.diff.added.count) to add, \(plan.diff.changed.count) to change, \(plan.diff.unchanged.count) unchanged; nothing was written"
            )
            return
        }
        let report = client.apply(plan, atomic: !partial)
        print(report, json: context.json)
        if !report.succeeded { exit(1) }
    }

    /// `2 added, 1 changed, 7 unchanged`, then what was not written, only when there is some.
    static func summary(_ report: SnapshotImport.Report) -> String {
        var parts = ["\(report.added.count) added", "\(report.changed.count) changed", "\(report.unchanged.count) unchanged"]
        let placeholders = report.skipped.count
        if placeholders > 0 {
            parts.append("\(placeholders) placeholder\(placeholders == 1 ? "" : "s") not written")
        }
        if !report.refused.isEmpty { parts.append("\(report.refused.count) refused") }
        return parts.joined(separator: ", ")
    }

    private static let skipReason =
        "a placeholder (the agent shows the stored value only as a stand-in, such as a JSON null); not written"

    private static func print(_ report: SnapshotImport.Report, json: Bool) {
        if json {
            let names: ([PreferenceAddress]) -> JSONValue = { .array($0.map { .string(SnapshotSide.plainName($0)) }) }
            let failures: ([SnapshotImport.Failure]) -> JSONValue = { list in
                .array(
                    list.map {
                        .object([
                            "item": .string(SnapshotSide.plainName($0.address)),
                            "code": .string($0.error.code.rawValue),
                            "message": .string($0.error.message),
                        ])
                    })
            }
            Terminal.outBytes(
                JSONWriter.bytes(
                    .object([
                        "added": names(report.added), "changed": names(report.changed),
                        "unchanged": .number(JSONNumber(report.unchanged.count)),
                        "skipped": names(report.skipped),
                        "refused": failures(report.refused), "notAttempted": names(report.notAttempted),
                        "rolledBack": .bool(report.rolledBack), "restored": names(report.restored),
                        "notRestored": failures(report.notRestored),
                    ])) + [0x0A])
            return
        }
        for address in report.added { Terminal.out("added    \(SnapshotSide.name(address))") }
        for address in report.changed { Terminal.out("changed  \(SnapshotSide.name(address))") }
        for address in report.skipped {
            Terminal.out(Terminal.yellow("skipped  \(SnapshotSide.name(address)): \(skipReason)"))
        }
        for failure in report.refused {
            Terminal.out(
                Terminal.red(
                    "refused  \(SnapshotSide.name(failure.address)): \(Terminal.escaped(failure.error.message))"))
        }
        if report.rolledBack {
            Terminal.out(
                Terminal.yellow(
                    "The agent refused a write, so the import was undone: restored \(report.restored.count) value(s); \(report.notAttempted.count) not attempted."
                ))
            for failure in report.notRestored {
                Terminal.out(
                    Terminal.red(
                        "NOT restored \(SnapshotSide.name(failure.address)): \(Terminal.escaped(failure.error.message))"
                    ))
            }
        } else {
            Terminal.out(summary(report))
        }
    }
}
