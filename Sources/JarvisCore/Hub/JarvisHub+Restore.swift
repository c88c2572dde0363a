import Foundation

/// Restoring to a moment: every key the journal saw change since then goes back to the value
/// it had, as one change (one journal entry group, which one undo takes back whole). Each write
/// is guarded by the revision the key has when the restore reads it; if any is refused, the
/// keys already written are put back, each a rollback entry that no undo or redo picks.
extension JarvisHub {
    /// Where a restore goes back to.
    package enum RestorePoint: Sendable, Hashable {
        /// Every key as this journal entry left it: the entries after it are taken back, it
        /// stays. 0 is before the journal's first entry, while the journal reaches back to it.
        case entry(Int64)
        /// This moment.
        case time(Date)
    }

    /// One key a restore changes (or would).
    package struct RestoreChange: Sendable {
        /// What the restore does to it: `added` (absent now, present then), `changed`, or
        /// `removed` (present now, absent then).
        package enum Kind: String, Sendable { case added, changed, removed }

        package var kind: Kind
        package var address: PreferenceAddress
        /// The stored value now; nil when absent.
        package var now: PreferenceValue?
        /// The value the restore writes; nil when it removes the key.
        package var then: PreferenceValue?
        /// The key belongs to a secret scanner: its values never leave the agent.
        package var isSecret: Bool
        /// The key's revision now (the write's guard).
        package var revision: Revision
        /// For a key removed since: the scanner's hint to put it back exactly.
        package var undoHint: [UInt8]? = nil
    }

    /// Puts every key the journal saw change after `point` back as it was then.
    /// - Parameter containers: only keys whose container (or `scanner:container`) matches one;
    ///   empty for every key.
    /// - Returns: the keys changed (or, for a dry run, that would be), in address order.
    /// - Throws: ``JarvisError``: `.readOnly` where editing is off, `.notFound` when the journal
    ///   does not reach back to `point`, `.unavailable` when a key's earlier value was not kept
    ///   (a secret's, after a restart), and the first refused write (after the keys already
    ///   written were put back; the message says so).
    package func restore(
        to point: RestorePoint, containers: [GlobPattern], dryRun: Bool, origin client: AuditRecord.Client
    ) throws(JarvisError) -> [RestoreChange] {
        let configuration = configuration
        if !configuration.editingEnabled {
            throw configuration.isProduction
                ? JarvisError(.readOnly, "editing is disabled: this agent runs the production configuration, so nothing can be restored")
                : JarvisError(.readOnly, "editing is disabled in this agent's configuration, so nothing can be restored")
        }
        // Only what the configuration shows now: a hidden key is never restored, nor named.
        let all = shownJournal()
        let since = all.filter { entry in
            switch point {
            case .entry(let id): entry.id > id
            case .time(let date): entry.time > date
            }
        }
        if case .entry(let id) = point, id == 0 ? journal.oldestID.map({ $0 != 1 }) ?? false : shownEntry(id) == nil {
            throw id == 0
                ? JarvisError(
                    .notFound,
                    "the journal no longer reaches back to its first entry, so it cannot say what every key held before it (see `jarvis history`); nothing was written")
                : JarvisError(.notFound, "no entry \(id) in the journal (see `jarvis history`); nothing was written")
        }
        // Entries older than the journal's first may have fallen out (its ids start at 1): it
        // cannot say what every key held before them.
        if case .time(let date) = point, let oldest = journal.entries().first, oldest.id != 1, oldest.time > date {
            throw JarvisError(
                .notFound,
                "the journal reaches back only to \(DateText.format(oldest.time)) (entry \(oldest.id)); nothing was written")
        }
        // Each key's first change since the point holds the value it had then.
        var first: [PreferenceAddress: JournalEntry] = [:]
        var order: [PreferenceAddress] = []
        // Only entries made where their container lives now: another place's history is not
        // this one's (two projects served under one agent name, a suite moved).
        var here: [PreferenceAddress: String?] = [:]
        for entry in since where matches(entry.address, containers) && first[entry.address] == nil {
            let place = here[entry.address] ?? location(of: entry.address)
            here[entry.address] = .some(place)
            guard entry.place == place else { continue }
            first[entry.address] = entry
            order.append(entry.address)
        }
        var changes: [RestoreChange] = []
        for address in order.sorted(by: { "\($0)" < "\($1)" }) {
            guard let entry = first[address] else { continue }
            guard entry.valuesKept else {
                throw JarvisError(
                    .unavailable,
                    "'\(address.key)' in '\(address.container)' cannot be restored: \(entry.isSecret ? "a secret's earlier value is not kept across a restart of the agent" : "its change was too large for the journal") (entry \(entry.id)); nothing was written")
            }
            let now = storedRaw(address)
            let then = entry.before
            if now?.value == then { continue }
            let kind: RestoreChange.Kind = now == nil ? .added : then == nil ? .removed : .changed
            changes.append(
                RestoreChange(
                    kind: kind, address: address, now: now?.value, then: then, isSecret: entry.isSecret,
                    revision: now?.revision ?? .absent, undoHint: entry.after == nil ? entry.undoHint : nil))
        }
        guard !dryRun else { return changes }
        // One change: every key's entry shares the group, and one undo takes them all back.
        let group = JournalGroup()
        try allOrNone(
            changes, done: "restored",
            write: { change throws(JarvisError) in
                _ = try write(
                    change.address, change.then.map { .set($0) } ?? .delete, expectedRevision: change.revision,
                    origin: WriteOrigin(client: client, action: .restore, undoHint: change.undoHint, group: group))
            },
            rollBack: { done in rollBack(done, group: group, origin: client) },
            refused: { change, error, back in
                JarvisError(
                    error.code,
                    "restoring '\(change.address.key)' in '\(change.address.container)' was refused: \(error.message); \(back)")
            })
        return changes
    }

    /// Writes back what a failed restore had written, newest first, each a ``JournalEntry/Action/rollback``
    /// of the key's entry in `group` (so no undo or redo takes any of it back); returns the keys
    /// that could not be put back.
    private func rollBack(_ done: [RestoreChange], group: JournalGroup, origin client: AuditRecord.Client) -> [String] {
        var failures: [String] = []
        for change in done.reversed() {
            let written = change.then.map { revision(of: $0, at: change.address, secret: change.isSecret) } ?? .absent
            let entry = group.entry(at: change.address)
            do {
                _ = try write(
                    change.address, change.now.map { .set($0) } ?? .delete, expectedRevision: written,
                    origin: WriteOrigin(
                        client: client, action: .rollback, reverts: entry?.id, undoHint: entry?.undoHint, group: group))
            } catch {
                failures.append("'\(change.address.key)' (\(error.message))")
            }
        }
        return failures
    }

    private func matches(_ address: PreferenceAddress, _ containers: [GlobPattern]) -> Bool {
        containers.isEmpty
            || containers.contains { $0.matches(address.container) || $0.matches("\(address.scanner):\(address.container)") }
    }

    /// The stored value at `address` (never a default showing through) and its revision as a
    /// client sees it; nil when absent, hidden or unreadable.
    func storedRaw(_ address: PreferenceAddress) -> (value: PreferenceValue, revision: Revision)? {
        guard let rules = visibility(of: address.scanner), rules.isEnabled,
            rules.shows(container: address.container), rules.shows(key: address.key, in: address.container),
            let entry = try? read(address, scanner: rules.scanner), entry.layer == .stored
        else { return nil }
        return (entry.value, revision(of: entry.value, at: address, secret: rules.scanner.info.isSecret))
    }
}
