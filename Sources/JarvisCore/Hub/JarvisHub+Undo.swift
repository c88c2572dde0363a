import Foundation

/// Undo and redo: a journal entry taken back by a guarded forward write, which is itself a
/// journal entry naming the one it took back.
///
/// The earlier value is written only if the key still has the revision the entry left, so an
/// undo never overwrites a later change: on a mismatch nothing is written and the answer
/// says what is there now. Undoing a delete writes only where the key is still absent;
/// undoing a creation deletes only an unchanged key.
extension JarvisHub {
    /// What to take back.
    package struct UndoRequest: Sendable {
        /// The entry; nil takes the newest one not yet taken back (for a redo, the newest undo).
        package var id: Int64?
        /// Take back the newest undo instead of a change.
        package var redo = false
        /// Say what would be written, and write nothing.
        package var dryRun = false
        /// Write even if the key changed since, provided it is now at this revision.
        package var forceAt: Revision?
        /// Without an id: only an entry of this key.
        package var key: String?
        /// Without an id: only an entry of a container this names (`scanner:container` or a
        /// container alone).
        package var container: String?
        /// Without an id: only an entry made by a client of this name (a face's own changes);
        /// `.some(nil)` for a client that gave no name.
        package var client: String??
        /// Without an id: only an entry of the change the client gave this name
        /// (``JournalEntry/change``).
        package var change: String?

        package init(
            id: Int64? = nil, redo: Bool = false, dryRun: Bool = false, forceAt: Revision? = nil, key: String? = nil,
            container: String? = nil, client: String?? = nil, change: String? = nil
        ) {
            self.change = change
            self.key = key
            self.container = container
            self.client = client
            self.id = id
            self.redo = redo
            self.dryRun = dryRun
            self.forceAt = forceAt
        }
    }

    /// What an undo did, or would do.
    package struct UndoOutcome: Sendable {
        /// The entry taken back.
        package var entry: JournalEntry
        /// The entry the undo wrote; nil for a dry run and a conflict.
        package var recorded: JournalEntry?
        /// The member (or whole value) written back; nil when the undo removes it.
        package var restoring: PreferenceValue?
        /// The revision the key must have for the undo to write.
        package var expected: Revision
        /// What the key holds now (after the undo, when it wrote), masked as every write
        /// answers; nil when nothing is stored.
        package var current: PreferenceItem?
        /// The key changed since the entry: nothing was written.
        package var isConflict = false
        /// For a change of several keys (``JournalEntry/group``): every entry taken back (or that
        /// would be), oldest first; `entry` is the first, or on a conflict the one whose key
        /// changed since. Empty for a change of one key.
        package var group: [JournalEntry] = []
        /// For a change of several keys: every entry the undo wrote, oldest first (its keys
        /// taken back newest first); `recorded` is the one of `entry`'s key.
        package var recordedGroup: [JournalEntry] = []
    }

    /// Takes back one journal entry (see the type's rules).
    /// - Returns: the outcome; a conflict is an outcome with `isConflict`, not an error, so the
    ///   caller can show both values.
    /// - Throws: ``JarvisError``: `.readOnly` where editing is off, `.notFound` for an entry the
    ///   journal no longer holds or nothing to undo, `.unavailable` for an entry whose values were
    ///   not kept (a secret's, after a restart), `.conflict` for an entry already taken back,
    ///   `.typeMismatch` when the catalog no longer allows the value, and as
    ///   ``set(_:to:expectedRevision:)``.
    package func undo(_ request: UndoRequest, origin client: AuditRecord.Client) throws(JarvisError) -> UndoOutcome {
        let configuration = configuration
        if !configuration.editingEnabled {
            throw configuration.isProduction
                ? JarvisError(.readOnly, "editing is disabled: this agent runs the production configuration, so nothing can be undone")
                : JarvisError(.readOnly, "editing is disabled in this agent's configuration, so nothing can be undone")
        }
        let entry = try undoTarget(request)
        if let group = entry.group {
            // Whole or not at all: a change whose first entries fell out cannot be taken back whole.
            guard journal.entry(group) != nil else {
                throw JarvisError(
                    .unavailable,
                    "entry \(entry.id) is one key of a change (entry \(group)) whose first entries fell out of the journal, which keeps the newest changes within \(journal.budget) bytes; it can no longer be taken back whole, so nothing was written")
            }
            let members = journal.standing(inGroup: group)
            if members.count > 1 { return try undoGroup(entry, members: members, request: request, origin: client) }
        }
        let address = entry.address
        let restoring = entry.memberBefore
        var expected = request.forceAt ?? entry.afterRevision ?? .absent
        let edit: Edit
        if let pointer = entry.pointer, !pointer.isWhole, let member = memberGuard(entry, pointer, forced: request.forceAt) {
            // Only the member this entry changed goes back: forced over a later change, or the
            // member is as the entry left it while a sibling changed since (guarded by the
            // key's revision now, so a change in between is still refused).
            expected = member
            edit = restoring.map { .setInside(pointer, $0) } ?? .deleteInside(pointer)
        } else {
            // At the revision the entry left, the whole value before is that value with the
            // member restored, exactly (an array element removed comes back in its place).
            edit = entry.before.map { .set($0) } ?? .delete
        }
        var outcome = UndoOutcome(entry: entry, restoring: restoring, expected: expected)
        if request.dryRun {
            outcome.current = storedItem(address)
            outcome.isConflict = (outcome.current?.revision ?? .absent) != expected
            return outcome
        }
        let action: JournalEntry.Action = entry.isUndo ? .redo : .undo
        do {
            let written = try write(
                address, edit, expectedRevision: expected,
                origin: WriteOrigin(
                    client: client, action: action, reverts: entry.id, undoHint: entry.undoHint,
                    place: WriteOrigin.Place(entry: entry.id, place: entry.place)))
            outcome.current = written.changes.first?.after
        } catch where error.code == .conflict {
            outcome.current = storedItem(address)
            outcome.isConflict = true
            return outcome
        } catch {
            throw error
        }
        outcome.recorded = journal.entries().last { $0.reverts == entry.id }
        return outcome
    }

    /// The entry an undo request names, checked that it can still be taken back.
    func undoTarget(_ request: UndoRequest) throws(JarvisError) -> JournalEntry {
        let word = request.redo ? "redo" : "undo"
        let entry: JournalEntry
        if let id = request.id {
            // A hidden entry is refused as an id never used, word for word.
            guard let found = shownEntry(id) else {
                if let oldest = journal.oldestID, id < oldest {
                    throw JarvisError(
                        .notFound,
                        "entry \(id) fell out of the journal, which keeps the newest changes within \(journal.budget) bytes (the oldest now is \(oldest)); nothing was written"
                    )
                }
                throw JarvisError(.notFound, "no entry \(id) in the journal (see `jarvis history`); nothing was written")
            }
            if request.redo && !found.isUndo {
                throw JarvisError(
                    .invalidParams, "entry \(id) is not an undo, so there is nothing to redo; `jarvis undo \(id)` takes it back")
            }
            entry = found
        } else {
            var shown = ShownEntries(hub: self)
            let accepts = { (entry: JournalEntry) -> Bool in
                self.isHere(entry) && (request.key.map { $0 == entry.address.key } ?? true)
                    && (request.container.map { $0 == entry.address.container || $0 == "\(entry.address.scanner):\(entry.address.container)" } ?? true)
                    && (request.client.map { $0 == entry.client?.name } ?? true)
                    && (request.change.map { $0 == entry.change } ?? true)
            }
            let candidate = { (entry: JournalEntry) -> Bool in accepts(entry) && shown.entry(entry) != nil }
            let picked = request.redo ? journal.newestRedoable(where: candidate) : journal.newestUndoable(where: candidate)
            let found = picked.flatMap { shown.entry($0) }
            guard let found else {
                if let change = request.change {
                    throw JarvisError(
                        .notFound,
                        "nothing to \(word): no entry of change '\(change)' is \(request.redo ? "an undo " : "")still standing here")
                }
                throw JarvisError(
                    .notFound, request.redo ? "nothing to redo: no undo is left to take back" : "nothing to undo: the journal holds no change still standing")
            }
            entry = found
        }
        if entry.isRollback {
            throw JarvisError(
                .invalidParams,
                "entry \(entry.id) put back a key of a change that was refused part way (entry \(entry.reverts ?? entry.id)); that change never took effect, so there is nothing to \(word); nothing was written")
        }
        if let by = entry.undoneBy, entry.isRolledBack {
            throw JarvisError(
                .conflict,
                "entry \(entry.id) was one key of a change that was refused part way and put back (entry \(by)); it never took effect, so there is nothing to \(word); nothing was written")
        }
        if let by = entry.undoneBy {
            throw JarvisError(
                .conflict,
                "entry \(entry.id) was already taken back by entry \(by); `jarvis \(entry.isUndo ? "undo" : "redo")` puts it back; nothing was written")
        }
        if !isHere(entry) {
            throw Self.elsewhere(
                WriteOrigin.Place(entry: entry.id, place: entry.place), container: entry.address,
                now: location(of: entry.address))
        }
        guard entry.valuesKept else {
            throw entry.isSecret
                ? JarvisError(
                    .unavailable,
                    "entry \(entry.id) changed the secret '\(entry.address.key)' before the agent restarted; a secret's earlier value is never written to disk, so it can no longer be restored; nothing was written")
                : JarvisError(
                    .unavailable,
                    "entry \(entry.id) was larger than the journal's budget, so its values were not kept and it cannot be \(word)ne; nothing was written")
        }
        return entry
    }

    /// The revision a member-only undo of a nested edit is guarded by: `forced`, or, when the
    /// key changed since the entry but the member is still what the entry left, the key's
    /// revision now; nil when the whole value goes back (the key is as the entry left it) or
    /// the member itself changed since (the undo is then a conflict).
    private func memberGuard(_ entry: JournalEntry, _ pointer: JSONPointer, forced: Revision?) -> Revision? {
        if let forced { return forced }
        guard let now = storedRaw(entry.address), now.revision != entry.afterRevision else { return nil }
        let member = try? pointer.value(in: now.value)
        return member == entry.memberAfter ? now.revision : nil
    }

    /// Whether `entry` was made where its container lives now (``JournalEntry/place``).
    package func isHere(_ entry: JournalEntry) -> Bool {
        location(of: entry.address) == entry.place
    }

    /// Where the container of `address` lives now; nil for a scanner whose values live in the
    /// program (or one no longer registered).
    package func location(of address: PreferenceAddress) -> String? {
        visibility(of: address.scanner)?.scanner.location(of: address.container)
    }

    /// The stored item at `address` as a write answers it (masked); nil when nothing is stored.
    func storedItem(_ address: PreferenceAddress) -> PreferenceItem? {
        guard let item = try? get(address), item.layer == .stored else { return nil }
        return item
    }
}
