/// Undo and redo of a change of several keys (a restore, a bulk delete, an undo of one of
/// those): every key is checked first, then all are written or none.
///
/// Every entry of the group that still stands goes back. Each key must still have the revision
/// its entry left, or nothing is written (a conflict naming the first key that changed); each
/// write is still guarded by that revision, and when one is refused in the middle (the key
/// changed meanwhile, its file became unwritable) the keys already written are put back, each
/// a rollback entry, so the change stands as it did and the next undo takes it again.
extension JarvisHub {
    /// Takes back every standing entry of the change `picked` belongs to (`members`, oldest first).
    func undoGroup(
        _ picked: JournalEntry, members: [JournalEntry], request: UndoRequest, origin client: AuditRecord.Client
    ) throws(JarvisError) -> UndoOutcome {
        let word = request.redo ? "redo" : "undo"
        let change = "entry \(picked.id) is one key of a change of \(members.count) keys (entry \(picked.group ?? picked.id))"
        if request.forceAt != nil {
            throw JarvisError(
                .invalidParams,
                "\(change), which an \(word) takes back whole; forceAt names one key's revision, so it cannot go with it; nothing was written")
        }
        var shown = ShownEntries(hub: self)
        for member in members {
            guard shown.entry(member) != nil else {
                throw JarvisError(
                    .unavailable,
                    "\(change), and the configuration no longer shows every one of them; a change is taken back whole or not at all, so nothing was written")
            }
            if !isHere(member) {
                throw Self.elsewhere(
                    WriteOrigin.Place(entry: member.id, place: member.place), container: member.address,
                    now: location(of: member.address))
            }
            guard member.valuesKept else {
                throw JarvisError(
                    .unavailable,
                    "\(change); entry \(member.id)'s values were not kept (\(member.isSecret ? "a secret's earlier value is not kept across a restart of the agent" : "too large for the journal's budget")), and a change is taken back whole or not at all, so nothing was written")
            }
        }
        var outcome = UndoOutcome(
            entry: members[0], restoring: members[0].before, expected: members[0].afterRevision ?? .absent)
        outcome.group = members
        // Every key first: each as its newest entry in the change left it, or nothing is written.
        var newest: [PreferenceAddress: Int64] = [:]
        for member in members { newest[member.address] = member.id }
        for member in members
        where newest[member.address] == member.id
            && (storedRaw(member.address)?.revision ?? .absent) != (member.afterRevision ?? .absent)
        {
            outcome.entry = member
            outcome.restoring = member.before
            outcome.expected = member.afterRevision ?? .absent
            outcome.current = storedItem(member.address)
            outcome.isConflict = true
            return outcome
        }
        if request.dryRun {
            outcome.current = storedItem(members[0].address)
            return outcome
        }
        let action: JournalEntry.Action = picked.isUndo ? .redo : .undo
        let group = JournalGroup()
        // Newest first, as the keys changed in turn: a removed key's hint places it back among
        // the keys that were there when it went.
        try allOrNone(
            members.reversed(), done: "written",
            write: { member throws(JarvisError) in
                _ = try write(
                    member.address, member.before.map { .set($0) } ?? .delete,
                    expectedRevision: member.afterRevision ?? .absent,
                    origin: WriteOrigin(
                        client: client, action: action, reverts: member.id, undoHint: member.undoHint,
                        place: WriteOrigin.Place(entry: member.id, place: member.place), group: group))
            },
            rollBack: { written in rollBack(written, of: group, origin: client) },
            refused: { member, error, back in
                JarvisError(
                    error.code,
                    "\(change); writing '\(member.address.key)' in '\(member.address.container)' back was refused: \(error.message); \(back)")
            })
        outcome.recordedGroup = group.entries
        outcome.recorded = group.entry(at: members[0].address)
        outcome.current = storedItem(members[0].address)
        return outcome
    }

    /// Writes each of `steps` in order; when one is refused, `rollBack` puts back those written
    /// (handed them oldest first; it answers the keys it could not put back) and the refusal is
    /// thrown as `refused` words it, given what was put back.
    /// - Parameter done: what the steps did, for the words (`restored`, `written`).
    func allOrNone<Step>(
        _ steps: [Step], done: String, write: (Step) throws(JarvisError) -> Void,
        rollBack: ([Step]) -> [String], refused: (Step, JarvisError, String) -> JarvisError
    ) throws(JarvisError) {
        var written: [Step] = []
        for step in steps {
            do {
                try write(step)
                written.append(step)
            } catch {
                let back = Self.putBack(written.count, lost: rollBack(written), done: done, none: "nothing was written")
                throw refused(step, error, back)
            }
        }
    }

    /// What a change refused part way says of the `count` keys it had written and put back
    /// (`done`: "written", "removed"), `lost` naming those that could not be.
    static func putBack(_ count: Int, lost: [String], done: String, none: String) -> String {
        if count == 0 { return none }
        if lost.isEmpty { return "the \(count) key(s) already \(done) were put back, so nothing changed" }
        return "the keys already \(done) were put back except \(lost.joined(separator: ", "))"
    }

    /// Writes back what a refused group undo had written, newest first, each a rollback of
    /// the undo's entry (so the change it took back stands again); returns the keys that could
    /// not be put back.
    private func rollBack(_ written: [JournalEntry], of group: JournalGroup, origin client: AuditRecord.Client)
        -> [String]
    {
        var lost: [String] = []
        for member in written.reversed() {
            let undo = group.entry(reverting: member.id)
            do {
                _ = try write(
                    member.address, member.after.map { .set($0) } ?? .delete,
                    expectedRevision: undo?.afterRevision ?? .absent,
                    origin: WriteOrigin(
                        client: client, action: .rollback, reverts: undo?.id, undoHint: undo?.undoHint, group: group))
            } catch {
                lost.append("'\(member.address.key)' in '\(member.address.container)' (\(error.message))")
            }
        }
        return lost
    }
}
