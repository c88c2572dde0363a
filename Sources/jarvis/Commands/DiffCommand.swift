import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis diff A B`: how two snapshots, or a snapshot and a live agent, differ.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "compare two snapshots, or a snapshot and a live agent"
    static let usage = """
        jarvis diff A B [CONTAINER] [--scanner ID] [--key GLOB]
                           [--reveal] [--exit-code] [--json]

          A and B are each a snapshot file (from `jarvis export`), `agent:NAME` or
          `agent:PID` for a running agent, or `-` for the agent other commands would use
          (--agent, JARVIS_AGENT, or the only one running). Lines show what B has that A
          has not:
            + added in B    - missing from B    ~ changed (A's value → B's value)
            ? a secret a snapshot left out (masked when exported): not compared
          The filters apply to both sides. --exit-code exits 1 when the sides differ;
          secrets that were not compared do not count. A live side shows secrets masked;
          --reveal asks the agent for their values (it must allow it, and records the
          reveal).
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let filters = SnapshotSide.Filters(
            scanner: arguments.option("--scanner"), container: nil, key: arguments.option("--key"))
        let exitCode = arguments.flag("--exit-code")
        let reveal = arguments.flag("--reveal")
        try arguments.finish(maxPositionals: 3, command: name)
        guard arguments.positionals.count >= 2 else { throw UsageError("diff needs two sides, A and B", command: name) }
        var both = filters
        if arguments.positionals.count == 3 {
            let text = arguments.positionals[2]
            if let colon = text.firstIndex(of: ":") {
                both.scanner = String(text[..<colon])
                both.container = String(text[text.index(after: colon)...])
            } else {
                both.container = text
            }
        }
        let first = try SnapshotSide.load(arguments.positionals[0], filters: both, reveal: reveal, context: context)
        let second = try SnapshotSide.load(arguments.positionals[1], filters: both, reveal: reveal, context: context)
        let diff = SnapshotDiff(from: first.items, to: second.items, leftOut: Set(first.leftOut + second.leftOut))
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(json(diff)) + [0x0A])
        } else {
            Terminal.out(
                Terminal.dim("--- \(Terminal.escaped(first.label))\n+++ \(Terminal.escaped(second.label))"))
            for item in diff.added {
                Terminal.out(Terminal.green("+ \(SnapshotSide.name(item.address)) = \(SnapshotSide.show(item))"))
            }
            for item in diff.removed {
                Terminal.out(Terminal.red("- \(SnapshotSide.name(item.address)) = \(SnapshotSide.show(item))"))
            }
            for change in diff.changed {
                if let inner = ValueText.innerChanges(old: change.old, new: change.new) {
                    // Inside a nested value: each place that differs, by pointer.
                    for difference in inner {
                        let name = SnapshotSide.name(change.new.address) + Terminal.escaped(difference.pointer.description)
                        Terminal.out(Terminal.yellow("~ \(name): \(ValueText.arrow(difference))"))
                    }
                    continue
                }
                Terminal.out(
                    Terminal.yellow(
                        "~ \(SnapshotSide.name(change.new.address)): \(SnapshotSide.show(change.old)) → \(SnapshotSide.show(change.new))"
                    ))
            }
            for item in diff.notCompared {
                Terminal.out(
                    Terminal.dim("? \(SnapshotSide.name(item.address)): a masked secret a snapshot left out; not compared"))
            }
            let notCompared = diff.notCompared.isEmpty ? "" : ", \(diff.notCompared.count) not compared (masked secrets)"
            Terminal.out(
                "\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed, \(diff.unchanged.count) unchanged"
                    + notCompared)
        }
        if exitCode && !diff.isEmpty { exit(1) }
    }

    /// The diff as JSON, items in the wire shape.
    static func json(_ diff: SnapshotDiff) -> JSONValue {
        .object([
            "added": .array(diff.added.map(WireItem.encode)),
            "removed": .array(diff.removed.map(WireItem.encode)),
            "changed": .array(
                diff.changed.map { change in
                    var object: JSONObject = ["old": WireItem.encode(change.old), "new": WireItem.encode(change.new)]
                    if let inner = ValueText.innerChanges(old: change.old, new: change.new) {
                        object["differences"] = ValueText.json(inner)
                    }
                    return .object(object)
                }),
            "unchanged": .number(JSONNumber(diff.unchanged.count)),
            "notCompared": .array(diff.notCompared.map { .string(SnapshotSide.plainName($0.address)) }),
        ])
    }
}
