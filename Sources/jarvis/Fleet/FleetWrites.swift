import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

/// `set`, `rm`, `undo` and `import` on several agents at once (`--agents`). Every write is
/// guarded by the revision read from that agent just before, so a key somebody changed there
/// meanwhile answers a conflict and is not overwritten; an agent that does not allow editing
/// is refused before anything is sent. A fan-out writes only what a single write would: a key
/// or container absent on an agent is created there only when asked (`--create`). Every
/// agent's entries of one fan-out carry its id (``FleetRun/newChange()``), so `undo --agents`
/// takes back that fan-out and nothing else.
enum FleetWrites {
    /// What `set` was asked to store.
    struct SetRequest: Sendable {
        var container: String
        var key: String
        var text: String
        /// The type asked for (`--int`, `--type json`…): nil to keep the type each agent has.
        var asked: PreferenceValue?
        var allowNew: Bool
        /// `--create`: create the key (and a container the scanner creates) where it is absent.
        var create: Bool
        var expected: Revision?
        var dryRun: Bool
    }

    static func set(_ resolved: AgentSelection.Resolved, _ request: SetRequest, context: Context) -> Never {
        let change = FleetRun.newChange()
        FleetOutput.run(resolved, context: context, writes: true) { agent, client in
            if let refusal = FleetOutput.requireEditing(client) { return refusal }
            let place = try agent.itemPlace(container: request.container, key: request.key)
            let target = try SetTarget(place, client: client, allowNew: request.allowNew, newHint: "Add --new to create it anyway.")
            if target.createsKey && !request.create {
                return FleetOutcome.Result(
                    .notFound, reason: "absent, not created (add --create to create it where it is absent)")
            }
            let reading = try request.asked == nil
                ? ValueReading(request.text, current: target.current, wireEncoding: true) : nil
            let value = request.asked ?? reading?.value ?? .string(request.text)
            if request.dryRun {
                return FleetOutcome.Result(
                    .wouldChange, value: FleetOutput.change(target.item, ValueFormat.preview(value, limit: 60)))
            }
            // Guarded always: by the revision asked for, else by the one just read.
            let revision = request.expected ?? target.revision
            let write = { (value: PreferenceValue) throws(JarvisError) -> PreferenceItem in
                try client.set(place, to: value, expectedRevision: revision, change: change)
            }
            let item: PreferenceItem
            if let reading {
                item = try SetTarget.store(reading, write).result
            } else {
                item = try write(value)
            }
            return FleetOutcome.Result(
                .changed, value: FleetOutput.change(target.item, InspectorState.preview(item, limit: 60)),
                detail: WireItem.encode(item))
        }
    }

    /// Deletes one key (or place inside one), guarded by the revision read on each agent.
    static func remove(
        _ resolved: AgentSelection.Resolved, container: String, key: String, expected: Revision?, dryRun: Bool,
        context: Context
    ) -> Never {
        let change = FleetRun.newChange()
        FleetOutput.run(resolved, context: context, writes: true) { agent, client in
            if let refusal = FleetOutput.requireEditing(client) { return refusal }
            let place = try agent.itemPlace(container: container, key: key)
            let current = try client.get(place)
            if dryRun {
                return FleetOutcome.Result(.wouldChange, value: FleetOutput.change(current, "(removed)"))
            }
            let removed = try client.delete(place, expectedRevision: expected ?? current.revision, change: change)
            return FleetOutcome.Result(
                .changed, value: FleetOutput.change(removed, "(removed)"), detail: WireItem.encode(removed))
        }
    }

    /// Deletes the keys a pattern (or the key catalog) selects, on each agent.
    static func removeKeys(
        _ resolved: AgentSelection.Resolved, match: String?, container: String, dryRun: Bool, context: Context
    ) -> Never {
        let change = FleetRun.newChange()
        FleetOutput.run(resolved, context: context, writes: true) { agent, client in
            if !dryRun, let refusal = FleetOutput.requireEditing(client) { return refusal }
            let (scanner, name) = try agent.split(container: container)
            var params =
                match.map { Wire.BulkDeleteParams(scanner: scanner, container: name, match: $0, dryRun: dryRun) }
                ?? Wire.BulkDeleteParams(scanner: scanner, undeclaredIn: name, dryRun: dryRun)
            if client.helloResult.capabilities.changes { params.change = change }
            let result = try client.deleteKeys(params)
            let count = result.keys.count == 1 ? "1 key" : "\(result.keys.count) keys"
            return FleetOutcome.Result(
                dryRun ? .wouldChange : .changed,
                value: (dryRun ? "would remove " : "removed ") + count + ": " + result.keys.joined(separator: ", "),
                detail: result.json)
        }
    }

    /// Takes back, on each agent, its part of the newest fan-out any of them holds still
    /// standing (or, with `redo`, each agent's newest undo), each guarded by the agent: a key
    /// changed since is a conflict. An agent that holds nothing of that fan-out is not written.
    static func undo(_ resolved: AgentSelection.Resolved, redo: Bool, dryRun: Bool, context: Context) -> Never {
        let change = redo ? nil : newestFanOut(resolved, context: context)
        FleetOutput.run(resolved, context: context, writes: true) { _, client in
            if !dryRun, let refusal = FleetOutput.requireEditing(client) { return refusal }
            if !redo && change == nil {
                return FleetOutcome.Result(
                    .notFound,
                    reason: "nothing to undo: no change made with --agents is still standing on the agents named")
            }
            let result =
                try redo
                ? client.redo(nil, dryRun: dryRun) : client.undo(Wire.UndoParams(dryRun: dryRun, change: change))
            let text = UndoRun.describe(result, redo: redo)
            if result.conflict { return FleetOutcome.Result(.conflict, reason: text, detail: result.json) }
            return FleetOutcome.Result(dryRun ? .wouldChange : .changed, value: text, detail: result.json)
        }
    }

    /// The id of the newest fan-out still standing on any agent of `resolved`: each agent's
    /// journal read at once (within the bound), its newest entry that can be undone and
    /// carries a fan-out's id, the newest of those by time.
    private static func newestFanOut(_ resolved: AgentSelection.Resolved, context: Context) -> String? {
        let found = Locked([(time: Date, change: String)]())
        _ = FleetRun.run(resolved, bound: context.agentsBound, clientName: "jarvis-cli") {
            (_, client) throws(JarvisError) -> FleetOutcome.Result in
            let page = try client.journal(Wire.JournalParams(limit: 10_000))
            let fanOut = { (entry: Wire.JournalEntry) in
                entry.undoable && entry.change?.hasPrefix(FleetRun.changePrefix) == true
            }
            if let entry = page.entries.last(where: fanOut), let change = entry.change {
                found.withLock { $0.append((entry.time, change)) }
            }
            return FleetOutcome.Result(.ok)
        }
        return found.withLock { $0.max { $0.time < $1.time }?.change }
    }

    /// Applies one snapshot to each agent, each write guarded by the revision that agent
    /// showed when compared.
    static func importSnapshot(
        _ resolved: AgentSelection.Resolved, snapshot: JarvisSnapshot, dryRun: Bool, partial: Bool, reveal: Bool,
        context: Context
    ) -> Never {
        let change = FleetRun.newChange()
        FleetOutput.run(resolved, context: context, writes: true) { _, client in
            if !dryRun, let refusal = FleetOutput.requireEditing(client) { return refusal }
            let plan = try client.importPlan(for: snapshot, reveal: reveal)
            if dryRun {
                return FleetOutcome.Result(
                    .wouldChange,
                    value:
                        "\(plan.diff.added.count) to add, \(plan.diff.changed.count) to change, \(plan.diff.unchanged.count) unchanged",
                    detail: DiffCommand.json(plan.diff))
            }
            let report = client.apply(plan, atomic: !partial, change: change)
            let summary = ImportCommand.summary(report)
            guard report.succeeded else {
                let conflict = report.refused.contains { $0.error.code == .conflict }
                let first = report.refused.first.map { ": " + $0.error.message } ?? ""
                return FleetOutcome.Result(
                    conflict ? .conflict : .failed,
                    reason: summary + (report.rolledBack ? " (rolled back)" : "") + first)
            }
            return FleetOutcome.Result(.changed, value: summary)
        }
    }
}
