/// The one write transaction: every method that changes storage (set, delete, pointer edits,
/// reset, bulk deletes, and so imports) is a few lines over ``write(_:_:expectedRevision:)``.
///
/// Its steps, once: resolve the target → read what is stored → check the expected revision →
/// refuse read-only items and placeholders → check the key catalog → write, which returns
/// what was stored (nothing is read back) → tell the write observers. Hidden containers and
/// keys take the path of a name that does not exist and cannot be created, so every method
/// answers them identically.
extension JarvisHub {
    /// What a write does to the key (or keys) it names.
    package enum Edit {
        /// Store the value, creating the key if needed.
        case set(PreferenceValue)
        /// Remove the stored value; `.notFound` when nothing is stored.
        case delete
        /// Remove the stored value if there is one, so the default applies again.
        case reset
        /// Store a value at one place inside the key's value.
        case setInside(JSONPointer, PreferenceValue)
        /// Remove one place inside the key's value.
        case deleteInside(JSONPointer)
        /// Remove every stored, visible key of the container that the selection picks.
        case deleteKeys(KeySelection, dryRun: Bool)

        var isBulk: Bool {
            if case .deleteKeys = self { return true }
            return false
        }

        var isDryRun: Bool {
            if case .deleteKeys(_, let dryRun) = self { return dryRun }
            return false
        }
    }

    /// Which keys of a container a bulk delete removes.
    package enum KeySelection: Sendable {
        /// Keys whose name matches the pattern.
        case matching(GlobPattern)
        /// Keys the host's key catalog does not declare.
        case undeclared
    }

    /// One key a write changed: as it was and as it is now.
    package struct KeyChange: Sendable, Hashable {
        /// The key.
        package var address: PreferenceAddress
        /// The stored item before the write; nil when nothing was stored.
        package var before: PreferenceItem?
        /// The item after the write; nil when nothing is stored or shown any more.
        package var after: PreferenceItem?
        /// The stored value before, unmasked (for the journal, which never lets a secret's leave
        /// the agent); nil when nothing was stored.
        package var beforeValue: PreferenceValue? = nil
        /// The stored value after, unmasked; nil when nothing is stored.
        package var afterValue: PreferenceValue? = nil
        /// For a removal: what the scanner needs to put the key back exactly (``WriteResult/undoHint``).
        package var undoHint: [UInt8]? = nil
    }

    /// What a write did, for the method's answer and for the audit trail.
    package struct WriteOutcome: Sendable {
        /// Every key written, in key order (what would be, for a dry run); empty when nothing was.
        package var changes: [KeyChange] = []
        /// The method's item: the stored item for a set, the removed one for a delete, the
        /// place inside for a pointer edit, the item now for a reset.
        package var item: PreferenceItem?
        /// For a bulk delete: the matched items as they were, in key order.
        package var items: [PreferenceItem] = []
    }

    /// Where a write goes, after the configuration and the scanner's own say.
    struct WriteTarget {
        /// What the write can reach at its address.
        enum Place {
            /// The container exists, and the key is visible.
            case existing(ContainerInfo)
            /// The container does not exist yet; a write creates it.
            case creatable(ContainerInfo)
            /// Nothing a client may reach: a container that does not exist and cannot be
            /// created. Nothing is read and nothing is created.
            case unreachable
            /// A hidden container or key: answered as unreachable, after the calls a shown name
            /// makes, on its stand-in (``ScannerVisibility/lookup(container:key:absent:)``); `reading`
            /// is the stand-in to read when its container exists.
            case hidden(reading: PreferenceAddress?)
        }

        var address: PreferenceAddress
        /// The scanner with its rules, under the configuration they were made under.
        var rules: ScannerVisibility
        var place: Place
        var info: ScannerInfo

        var scanner: any PreferenceScanner { rules.scanner }
        var configuration: JarvisConfiguration { rules.configuration }

        /// The container to build items with.
        var shownContainer: ContainerInfo {
            switch place {
            case .existing(let container), .creatable(let container): container
            case .unreachable, .hidden: ContainerInfo(address.container, exists: false)
            }
        }
    }

    /// Runs one write transaction.
    /// - Parameters:
    ///   - address: the key; for a bulk delete, the container (the key is ignored).
    ///   - expectedRevision: single keys only: write only if the stored value still has it.
    ///   - known: the container as ``owner(ofContainer:)`` just found it, so it is not asked
    ///     for again; nil asks the scanner.
    ///   - origin: who asked, for the journal (``journal``), which records every key written.
    /// - Returns: what changed, and the item the method answers with.
    /// - Throws: ``JarvisError``; nothing is written and nobody is told when it throws, except
    ///   a bulk delete that failed part way, whose removed keys are told.
    package func write(
        _ address: PreferenceAddress, _ edit: Edit, expectedRevision: Revision? = nil, known: ContainerInfo? = nil,
        origin: WriteOrigin = .inProcess
    ) throws(JarvisError) -> WriteOutcome {
        let target = try writeTarget(address, checksKey: !edit.isBulk, requiresEditing: !edit.isDryRun, known: known)
        var wrote = false
        // One container's writes in order; other containers' writes go on meanwhile.
        let container = Self.writeKey(target.scanner.id, address.container)
        return try writes.withLock(container) { () throws(JarvisError) -> WriteOutcome in
            let place = target.scanner.location(of: address.container)
            if let required = origin.place, required.place != place {
                throw Self.elsewhere(required, container: address, now: place)
            }
            let outcome: WriteOutcome
            if case .deleteKeys(let selection, let dryRun) = edit {
                outcome = try removeKeys(selection, dryRun: dryRun, target: target, wrote: &wrote)
            } else {
                outcome = try writeKey(
                    edit, expectedRevision: expectedRevision, target: target, undoHint: origin.undoHint, wrote: &wrote)
            }
            // Under the container's lock, so the journal orders a key's entries as it was written.
            if wrote { journal(outcome, edit: edit, origin: origin, secret: target.info.isSecret, place: place) }
            return outcome
        }
    }

    /// The refusal of a write that takes back an entry made where the container no longer lives.
    static func elsewhere(_ required: WriteOrigin.Place, container address: PreferenceAddress, now: String?)
        -> JarvisError
    {
        let then = required.place ?? "this program's own values"
        let here = now ?? "this program's own values"
        return JarvisError(
            .conflict,
            "entry \(required.entry) changed \(address.scanner):\(address.container) at \(then), but this agent serves it at \(here); an entry is only taken back where it was made, so nothing was written")
    }

    /// The key of a container's write lock in ``writes``.
    static func writeKey(_ scanner: String, _ container: String) -> String {
        scanner + "\u{0}" + container
    }

    /// Whether a write to a container is under way (or waits for another's): the change
    /// engine leaves the container alone until it ends, as the write will tell what it did.
    package func isWriting(scanner: String, container: String) -> Bool {
        writes.isBusy(Self.writeKey(scanner, container))
    }

    /// Step 1: the scanner and container, after the configuration and the scanner's own say.
    func writeTarget(
        _ address: PreferenceAddress, checksKey: Bool, requiresEditing: Bool, known: ContainerInfo? = nil
    ) throws(JarvisError) -> WriteTarget {
        let (registered, configuration) = rules(for: address.scanner)
        if requiresEditing && !configuration.editingEnabled {
            throw configuration.isProduction
                ? JarvisError(.readOnly, "editing is disabled: this agent runs the production configuration")
                : JarvisError(.readOnly, "editing is disabled in this agent's configuration")
        }
        guard let rules = registered, rules.isEnabled else {
            throw .noScanner(address.scanner)
        }
        let scanner = rules.scanner
        let info = scanner.info
        if let reason = info.unavailableReason {
            throw JarvisError(.unavailable, "scanner '\(scanner.id)' is unavailable: \(reason)")
        }
        if requiresEditing && !info.isWritable {
            throw JarvisError(.readOnly, "scanner '\(address.scanner)' is read-only")
        }
        var target = WriteTarget(
            address: address, rules: rules, place: .unreachable, info: info)
        // A hidden container or key is never asked for: its stand-in is, and it answers as one
        // that is not there.
        let lookup = rules.lookup(
            container: address.container, key: checksKey ? address.key : nil, absent: absentName)
        guard lookup.isShown else {
            let standIn = PreferenceAddress(scanner: address.scanner, container: lookup.container, key: lookup.key)
            let found = try? Self.writeContainer(lookup.container, in: scanner)
            // A hidden key of a shown container that cannot be read is refused as a missing key
            // of it is, or the refusal alone would tell which names a rule hides.
            if lookup.container == address.container, found?.exists == true, let problem = found?.problem {
                throw JarvisError(.storage, "'\(address.container)' cannot be read: \(problem)")
            }
            target.place = .hidden(reading: found?.exists == true && found?.problem == nil ? standIn : nil)
            return target
        }
        var found = known
        if found == nil {
            do {
                found = try Self.writeContainer(address.container, in: scanner)
            } catch {
                throw Self.wrap(error)
            }
        }
        guard let container = found else { return target }
        guard container.exists else {
            target.place = .creatable(container)
            return target
        }
        if let problem = container.problem {
            throw JarvisError(.storage, "'\(address.container)' cannot be read: \(problem)")
        }
        if requiresEditing && !container.isWritable {
            throw JarvisError(.readOnly, "'\(address.container)' is read-only")
        }
        target.place = .existing(container)
        return target
    }

    /// The container a write to `name` goes to, asked as the scanner answers for writes (see
    /// ``PresumedContainers``): the same call for a shown name and a hidden name's stand-in,
    /// so both cost the same.
    private static func writeContainer(_ name: String, in scanner: any PreferenceScanner) throws -> ContainerInfo? {
        if let presuming = scanner as? any PresumedContainers { return try presuming.writeContainer(named: name) }
        return try scanner.container(named: name)
    }

    /// Whether `edit` replaces a placeholder whole or removes it, on an item that only its
    /// stand-in makes read-only: a JSON `null` set to `5`, or deleted. Nothing of the stand-in
    /// is stored then. Writing the stand-in itself back (the string "null" over a `null`) and
    /// pointer edits inside it (which would carry it into the new value) stay refused.
    private func replacesStandIn(
        _ edit: Edit, before: PreferenceItem, current: ScannedEntry?, target: WriteTarget
    ) -> Bool {
        guard before.isPlaceholder, var exact = current else { return false }
        switch edit {
        case .set(let value) where value != before.value: break
        case .delete: break
        default: return false
        }
        exact.isExact = true
        return item(exact, target: target).isWritable
    }

    /// Steps 2–7 for one key.
    private func writeKey(
        _ edit: Edit, expectedRevision: Revision?, target: WriteTarget, undoHint: [UInt8]?, wrote: inout Bool
    ) throws(JarvisError) -> WriteOutcome {
        let address = target.address
        let (key, name) = (address.key, address.container)
        var current: ScannedEntry?
        var visible = true
        switch target.place {
        case .existing: current = try read(address, scanner: target.scanner)
        case .creatable: break
        case .unreachable: visible = false
        case .hidden(let standIn):
            if let standIn { _ = try? read(standIn, scanner: target.scanner) }
            visible = false
        }
        try check(expectedRevision, against: current, target: target)
        let before = current.map { item($0, target: target) }
        let removesNothing: Bool
        switch edit {
        case .reset: removesNothing = current?.layer != .stored
        case .deleteKeys: removesNothing = true
        default: removesNothing = false
        }
        if !removesNothing, let before, !before.isWritable,
            !replacesStandIn(edit, before: before, current: current, target: target)
        {
            throw before.isPlaceholder
                ? JarvisError(
                    .readOnly,
                    "'\(key)' in '\(name)' holds a value Jarvis shows only as a stand-in (such as a JSON null or a number out of range); it is read-only so the stand-in is never stored"
                )
                : JarvisError(.readOnly, "'\(key)' in '\(name)' is read-only")
        }
        let change: WriteRequest.Change?
        switch edit {
        case .set(let value):
            if current == nil && !visible {
                throw .cannotCreate(key, in: name)
            }
            change = .set(value)
        case .delete:
            guard let current, current.layer == .stored else { throw .noKey(key, in: name) }
            change = .delete
        case .reset:
            change = current?.layer == .stored ? .delete : nil
        case .setInside(let pointer, let value):
            guard let current else { throw .nothingToEditInside(key, in: name) }
            change = .set(try pointer.setting(value, in: current.value, key: address.key))
        case .deleteInside(let pointer):
            guard let current else { throw .nothingToEditInside(key, in: name) }
            change = .set(try pointer.removing(in: current.value, key: address.key))
        case .deleteKeys:
            change = nil
        }
        var outcome = WriteOutcome()
        guard let change else {
            // A reset with nothing stored: the item now is the default or the catalog's unset item.
            outcome.item = before ?? (visible ? unsetItem(address, target: target) : nil)
            return outcome
        }
        if case .set(let value) = change { try target.configuration.catalog.check(value, at: address) }
        let encoding = current?.layer == .stored ? current?.encoding : nil
        var request = WriteRequest(container: name, key: key, change: change, encoding: encoding)
        if case .set = edit { request.undoHint = undoHint }
        let stored = try perform(request, on: target.scanner)
        wrote = true
        let replaced = before?.layer == .stored ? before : nil
        switch edit {
        case .delete:
            outcome.changes = [
                KeyChange(
                    address: address, before: replaced, after: nil, beforeValue: replaced.flatMap { _ in current?.value },
                    undoHint: stored.undoHint)
            ]
            outcome.item = before
            return outcome
        case .reset:
            let now = stored.entry.map { item($0, target: target) }
            outcome.changes = [
                KeyChange(
                    address: address, before: replaced, after: nil, beforeValue: replaced.flatMap { _ in current?.value },
                    undoHint: stored.undoHint)
            ]
            outcome.item = now ?? unsetItem(address, target: target)
            return outcome
        default:
            break
        }
        guard let back = stored.entry, back.key == key else {
            throw JarvisError(.storage, "'\(key)' was written but cannot be read back from '\(name)'")
        }
        let after = item(back, target: target)
        outcome.changes = [
            KeyChange(
                address: address, before: replaced, after: after, beforeValue: replaced.flatMap { _ in current?.value },
                afterValue: back.value)
        ]
        switch edit {
        case .setInside(let pointer, _):
            // `-` named "after the last" before the append; answer with the index it became.
            let place = try pointer.resolvingAppend(in: current?.value ?? back.value, key: address.key)
            outcome.item = targetItem(try place.value(in: back.value, key: address.key), pointer: place, entry: back, target: target)
        case .deleteInside(let pointer):
            if let current {
                outcome.item = targetItem(
                    try pointer.value(in: current.value, key: address.key), pointer: pointer, entry: back, target: target)
            }
        default:
            outcome.item = after
        }
        return outcome
    }

    /// Steps 2–7 for every selected key of one container.
    private func removeKeys(
        _ selection: KeySelection, dryRun: Bool, target: WriteTarget, wrote: inout Bool
    ) throws(JarvisError) -> WriteOutcome {
        let name = target.address.container
        let configuration = target.configuration
        if case .undeclared = selection,
            !configuration.catalog.covers(scanner: target.scanner.id, container: name)
        {
            throw .notCatalogued(name, scanner: target.scanner.id)
        }
        guard case .existing = target.place else { return WriteOutcome() }
        let rules = target.rules
        let entries: [ScannedEntry]
        do {
            entries = try target.scanner.read(ReadRequest(container: name))
        } catch {
            throw Self.wrap(error)
        }
        let matched =
            entries
            .filter { entry in
                guard entry.layer == .stored, rules.shows(key: entry.key, in: name) else { return false }
                switch selection {
                case .matching(let pattern): return pattern.matches(entry.key)
                case .undeclared:
                    return !configuration.catalog.declares(
                        PreferenceAddress(scanner: target.scanner.id, container: name, key: entry.key))
                }
            }
            .sorted { $0.key < $1.key }
        var outcome = WriteOutcome()
        outcome.items = matched.map { item($0, target: target) }
        outcome.changes = zip(outcome.items, matched).map {
            KeyChange(address: $0.address, before: $0, after: nil, beforeValue: $1.value)
        }
        guard !dryRun else { return outcome }
        if let locked = outcome.items.first(where: { !$0.isWritable }) {
            throw JarvisError(.readOnly, "'\(locked.address.key)' in '\(name)' is read-only; nothing was removed")
        }
        for (done, entry) in matched.enumerated() {
            do {
                let stored = try perform(WriteRequest(container: name, key: entry.key, change: .delete), on: target.scanner)
                outcome.changes[done].undoHint = stored.undoHint
            } catch {
                // One change or none: the keys already removed go back, under the same lock.
                let lost = putBack(Array(zip(matched, outcome.changes).prefix(done)), target: target)
                wrote = !lost.isEmpty
                let back = Self.putBack(done, lost: lost, done: "removed", none: "nothing was removed")
                throw JarvisError(error.code, "\(error.message) (removing '\(entry.key)'; \(back))")
            }
        }
        wrote = !matched.isEmpty
        return outcome
    }

    /// Writes back the keys a bulk delete removed before it was refused, newest first; returns
    /// those that could not be put back.
    private func putBack(_ removed: [(ScannedEntry, KeyChange)], target: WriteTarget) -> [String] {
        var lost: [String] = []
        for (entry, change) in removed.reversed() {
            var request = WriteRequest(
                container: target.address.container, key: entry.key, change: .set(entry.value), encoding: entry.encoding)
            request.undoHint = change.undoHint
            do {
                _ = try perform(request, on: target.scanner)
            } catch {
                lost.append("'\(entry.key)' (\(error.message))")
            }
        }
        return lost
    }

    /// An item as every write answers it: never revealed.
    func item(_ entry: ScannedEntry, target: WriteTarget) -> PreferenceItem {
        item(
            entry, scanner: target.scanner, container: target.shownContainer, configuration: target.configuration,
            reveal: false, info: target.info)
    }

    func unsetItem(_ address: PreferenceAddress, target: WriteTarget) -> PreferenceItem? {
        unsetItem(
            address, scanner: target.scanner, container: target.shownContainer, configuration: target.configuration)
    }

    func targetItem(_ value: PreferenceValue, pointer: JSONPointer, entry: ScannedEntry, target: WriteTarget)
        -> PreferenceItem
    {
        targetItem(
            value, pointer: pointer, entry: entry, scanner: target.scanner, container: target.shownContainer,
            configuration: target.configuration, reveal: false)
    }

    /// The item a method answers with, which the transaction always provides for it.
    package static func answer(_ item: PreferenceItem?, for address: PreferenceAddress) throws(JarvisError)
        -> PreferenceItem
    {
        guard let item else {
            throw JarvisError(.storage, "'\(address.key)' in '\(address.container)' was written but gave no item")
        }
        return item
    }
}
