import Foundation
import JarvisCore

/// `journal`, `undo` and `redo`: the journal with values (a secret's never sent), and taking an
/// entry back by a guarded forward write, audited as the write it is.
extension AgentService {
    /// `journal`: the newest entries, oldest first.
    func journal(_ raw: JSONObject) throws -> JSONValue {
        let params = try Wire.JournalParams(params: raw)
        let scanner = params.scanner.map { GlobPattern($0) }
        let container = params.container.map { GlobPattern($0) }
        let key = params.key.map { GlobPattern($0) }
        let journal = hub.journal
        // What the configuration hides now is left out, as if never seen (``JarvisHub/shownJournal()``).
        let matching = hub.shownJournal().filter { entry in
            (scanner?.matches(entry.address.scanner) ?? true)
                && (container?.matches(entry.address.container) ?? true)
                && (key?.matches(entry.address.key) ?? true)
        }
        return Wire.JournalPage(
            entries: matching.suffix(params.limit ?? 100).map { entry in
                Wire.JournalEntry(entry, elsewhere: hub.isHere(entry) ? nil : .some(hub.location(of: entry.address)))
            },
            bytes: Int64(journal.bytes), budget: Int64(journal.budget), problems: journal.problems
        ).json
    }

    /// `undo` or `redo`. A conflict is an error (`conflict`, nothing written) whose message
    /// shows the value it would restore and the value there now, and whose data carries them
    /// with the current revision to send as `forceAt`.
    func undo(_ raw: JSONObject, redo: Bool, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.UndoParams(params: raw, method: redo ? .redo : .undo)
        let request = JarvisHub.UndoRequest(
            id: params.id, redo: redo, dryRun: params.dryRun, forceAt: params.forceAt.map(Revision.init),
            key: params.key, container: params.container,
            client: params.mine ? .some(session.auditClient.name) : nil, change: params.change)
        let outcome = try hub.undo(request, origin: session.auditClient)
        let restore = outcome.restoring.map { Wire.JournalValue($0, secret: outcome.entry.isSecret) }
        if outcome.isConflict && !params.dryRun {
            throw Self.undoConflict(outcome, restore: restore)
        }
        let recorded = outcome.recordedGroup.isEmpty ? outcome.recorded.map { [$0] } ?? [] : outcome.recordedGroup
        for entry in recorded {
            var record = AuditRecord(
                action: redo || outcome.entry.isUndo ? .redo : .undo, client: session.auditClient,
                address: entry.address, oldRevision: entry.beforeRevision, newRevision: entry.afterRevision)
            record.pointer = entry.pointer
            record.reverts = entry.reverts ?? outcome.entry.id
            audit.record(record)
        }
        let hub = hub
        let shown = { (entry: JarvisCore.JournalEntry) in Wire.JournalEntry(hub.shownEntry(entry.id) ?? entry) }
        var result = Wire.UndoResult(
            undone: shown(outcome.entry), entry: outcome.recorded.map { Wire.JournalEntry($0) },
            dryRun: params.dryRun, conflict: outcome.isConflict, restore: restore, item: outcome.current)
        result.undoneGroup = outcome.group.map(shown)
        result.entries = outcome.recordedGroup.map { Wire.JournalEntry($0) }
        return result.json
    }

    /// `restore`: every key changed since a moment put back, as one change; each key written is
    /// audited as the set or delete it is.
    func restore(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.RestoreParams(params: raw)
        let point: JarvisHub.RestorePoint = params.toEntry.map { .entry($0) } ?? .time(params.toTime ?? Date())
        let changes = try hub.restore(
            to: point, containers: params.containers.map { GlobPattern($0) }, dryRun: params.dryRun,
            origin: session.auditClient)
        if !params.dryRun {
            for change in changes {
                audit.record(
                    AuditRecord(
                        action: change.then == nil ? .delete : .set, client: session.auditClient,
                        address: change.address, oldRevision: change.now == nil ? nil : change.revision,
                        newRevision: change.then.map { hub.revision(of: $0, at: change.address, secret: change.isSecret) }))
            }
        }
        return Wire.RestoreResult(
            dryRun: params.dryRun,
            changes: changes.map { change in
                Wire.RestoreChange(
                    kind: change.kind.rawValue, address: change.address,
                    now: change.now.map { Wire.JournalValue($0, secret: change.isSecret) },
                    then: change.then.map { Wire.JournalValue($0, secret: change.isSecret) })
            }
        ).json
    }

    private static func undoConflict(_ outcome: JarvisHub.UndoOutcome, restore: Wire.JournalValue?) -> RPCError {
        let entry = outcome.entry
        let now = outcome.current
        let revision = now?.revision ?? .absent
        let place = "'\(entry.address.key)' in '\(entry.address.container)'"
        let would = restore.map { "restore \(preview($0.value, type: $0.type))" } ?? "remove it"
        let there = now.map { "it holds \(preview($0.value, type: $0.type)) now (revision \($0.revision))" } ?? "it is absent now"
        let message =
            outcome.group.count > 1
            ? "\(place) changed since entry \(entry.id) (which left revision \(entry.afterRevision?.text ?? "absent")), one key of a change of \(outcome.group.count) keys (entry \(entry.group ?? entry.id)) that is taken back whole or not at all; nothing was written. The undo would \(would); \(there)"
            : "\(place) changed since entry \(entry.id) (which left revision \(entry.afterRevision?.text ?? "absent")); nothing was written. The undo would \(would); \(there). To write anyway, send forceAt \(revision) (jarvis undo \(entry.id) --force-at \(revision))"
        var details: JSONObject = ["entry": .integer(entry.id), "currentRevision": .string(revision.text)]
        details.setIfPresent("restore", restore?.json)
        details.setIfPresent("current", now.map(WireItem.encode))
        return RPCError(
            code: RPCError.agentCodes.first { $0.0 == .conflict }?.1 ?? -32004, message: message,
            name: JarvisError.Code.conflict.rawValue, details: details)
    }

    /// A short text of a value for a message; a secret's (nil) shows as its type only.
    static func preview(_ value: PreferenceValue?, type: PreferenceType) -> String {
        guard let value else { return "a \(type.rawValue) (not shown: a secret's, or too large)" }
        let text = JSONWriter.string(value.json)
        return text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }
}
