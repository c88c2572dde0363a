import Foundation

/// Keeping the journal: every key a write transaction changed, and every outside change the
/// change engine heard. Hidden keys never reach it: writes never touch them, and the engine
/// reports only what the configuration shows.
extension JarvisHub {
    /// Records what one write transaction changed (a key written with the value it held is left
    /// out). Called under the container's write lock.
    func journal(_ outcome: WriteOutcome, edit: Edit, origin: WriteOrigin, secret: Bool, place: String?) {
        let action: JournalEntry.Action
        var pointer: JSONPointer?
        switch edit {
        case .set: action = .set
        case .delete, .deleteKeys: action = .delete
        case .reset: action = .reset
        case .setInside, .deleteInside:
            action = .set
            pointer = outcome.item?.pointer
        }
        // A write of the value (and type) already stored changed nothing: nothing to take back.
        // An undo or redo is always recorded, so the entry it takes back is marked.
        let changed = outcome.changes.filter { change in
            origin.reverts != nil || change.beforeValue != change.afterValue
        }
        let entries = changed.map { change in
            var entry = JournalEntry(
                    action: origin.action ?? action, address: change.address, pointer: pointer,
                    before: change.beforeValue, after: change.afterValue,
                    beforeRevision: change.before?.revision, afterRevision: change.afterValue == nil ? nil : change.after?.revision,
                    client: origin.client, isSecret: secret, reverts: origin.reverts, place: place)
            entry.undoHint = change.undoHint
            return entry
        }
        // A bulk delete is one change, however many keys it removed.
        journal.record(entries, group: origin.group ?? (edit.isBulk && entries.count > 1 ? JournalGroup() : nil))
    }

    /// Records the changes an outside writer made to one container, as the change engine read
    /// them (raw entries, before a secret scanner's are sealed). A change the journal already
    /// holds as the agent's own write (the key's newest entry left the revision it has now)
    /// is not recorded twice. Hidden keys are skipped.
    ///
    /// Runs under the container's write lock: a write whose file change the engine read before
    /// the write was journaled has been journaled by then, so it is never taken for an outside one.
    package func journalOutside(_ changes: [RawChange], scanner: String, container: ContainerInfo) {
        guard let rules = visibility(of: scanner), rules.isEnabled, rules.shows(container: container.name) else { return }
        writes.withLock(Self.writeKey(scanner, container.name)) {
            journalOutside(changes, rules: rules, container: container)
        }
    }

    private func journalOutside(_ changes: [RawChange], rules: ScannerVisibility, container: ContainerInfo) {
        let scanner = rules.id
        let secret = rules.scanner.info.isSecret
        var heard: [JournalEntry] = []
        let place = rules.scanner.location(of: container.name)
        let known = journal.newestAfterRevisions(
            at: Set(changes.map { PreferenceAddress(scanner: scanner, container: container.name, key: $0.key) }),
            place: place)
        for change in changes {
            let address = PreferenceAddress(scanner: scanner, container: container.name, key: change.key)
            guard rules.shows(key: change.key, in: container.name) else { continue }
            let old = change.old.flatMap { $0.layer == .stored ? $0 : nil }
            let new = change.new.flatMap { $0.layer == .stored ? $0 : nil }
            guard old != nil || new != nil else { continue }
            let oldRevision = old.map { revision(of: $0.value, at: address, secret: secret) }
            let newRevision = new.map { revision(of: $0.value, at: address, secret: secret) }
            if let last = known[address], last == newRevision { continue }
            heard.append(
                JournalEntry(
                    action: .outside, address: address, before: old?.value, after: new?.value,
                    beforeRevision: oldRevision, afterRevision: newRevision, client: nil, isSecret: secret,
                    place: place))
        }
        journal.record(heard)
    }

    /// Tells the journal what a read found at `address` (nil: nothing there), so that a change
    /// made outside the agent since its own is journaled even when nobody watched: heard when
    /// the key is next read (`get`, `list`, a pointer read) or written (see
    /// ``ChangeJournal/record(_:)``).
    ///
    /// Only a key the journal holds an entry of, at another revision than that entry left, is
    /// looked at again, under the container's write lock: a write in flight there has then
    /// stored and journaled its value, so it is never taken for an outside change. Never call
    /// it from inside a write transaction (that lock is held there).
    /// - Parameters:
    ///   - item: what the read answered; nil when the key was not there.
    ///   - stored: the name the key is stored under, when the read looked it up by another
    ///     spelling (``resolve(_:checkpoint:)``); `address` otherwise.
    func hear(_ item: PreferenceItem?, at address: PreferenceAddress, stored: PreferenceAddress? = nil) {
        let found = item?.layer == .stored ? item : nil
        guard journal.differs(at: address, revision: found?.revision) else { return }
        let name = stored ?? address
        writes.withLock(Self.writeKey(address.scanner, address.container)) {
            guard let rules = visibility(of: address.scanner), rules.isEnabled else { return }
            let place = rules.scanner.location(of: address.container)
            let entry: ScannedEntry?
            do {
                entry = try rules.scanner.read(key: name.key, in: name.container)
            } catch {
                return
            }
            let value = entry?.layer == .stored ? entry?.value : nil
            let secret = rules.scanner.info.isSecret
            journal.heard(
                address, stored: value, revision: value.map { revision(of: $0, at: address, secret: secret) },
                place: place, secret: secret)
        }
    }

    /// The revision a client sees for a value stored at `address`.
    package func revision(of value: PreferenceValue, at address: PreferenceAddress, secret: Bool) -> Revision {
        secret ? masker.revision(of: value, at: address) : Revision(of: value)
    }
}
