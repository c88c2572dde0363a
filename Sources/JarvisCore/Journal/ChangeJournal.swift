import Foundation

/// The agent's journal of changes: every write it made and every outside change it heard,
/// with the values before and after, bounded in bytes (oldest out first) and, when it has a
/// ``JournalStore``, kept across restarts.
///
/// Thread-safe. The lock guards memory only; the store does its own I/O after it is released.
package final class ChangeJournal: Sendable {
    /// The default byte budget: 16 MiB.
    package static let defaultBudget = 16 << 20

    private struct State {
        var entries: [JournalEntry] = []
        var bytes = 0
        var nextID: Int64 = 1
        var budget: Int
        var store: (any JournalStore)?
        var problems: [String] = []
        /// Each address's newest entry, by id: what a key was left at, to hear a change made
        /// outside the agent when the key is next read or written.
        var latest: [PreferenceAddress: Int64] = [:]
    }

    private let state: Locked<State>
    /// Entered while the journal's file is read (``beginLoading()``), off the host's thread:
    /// every use of the journal waits for it, so ids carry on from the file's.
    private let loading = DispatchGroup()

    package init(budget: Int = ChangeJournal.defaultBudget) {
        state = Locked(State(budget: max(0, budget)))
    }

    /// Says the journal's past is being read elsewhere: every use waits until ``endLoading()``.
    package func beginLoading() {
        loading.enter()
    }

    /// The byte budget in memory.
    package var budget: Int {
        loading.wait()
        return state.withLock { $0.budget }
    }
    /// The bytes the entries hold now (``JournalEntry/weight``), never above ``budget``.
    package var bytes: Int {
        loading.wait()
        return state.withLock { $0.bytes }
    }
    /// What went wrong reading the journal file (set aside, never trusted); empty when nothing.
    package var problems: [String] {
        loading.wait()
        return state.withLock { $0.problems }
    }

    /// Sets the budget and the store, and takes the entries the store held (oldest first) as
    /// the journal's past: ids carry on after the largest.
    package func open(budget: Int, store: (any JournalStore)?, entries: [JournalEntry], problems: [String]) {
        state.withLock { state in
            state.budget = max(0, budget)
            state.store = store
            state.problems = problems
            var byID: [Int64: JournalEntry] = [:]
            for entry in entries { byID[entry.id] = entry }
            var sorted = (state.entries + byID.values).sorted { $0.id < $1.id }
            if let last = sorted.last, last.id > Self.largestID {
                // A file's ids so near the end of Int64 that the next ones would overflow:
                // renumbered from 1 in their order, so no file can stop the agent.
                sorted = Self.renumbered(sorted)
                state.problems.append(
                    "the journal's entry ids reached \(last.id), past the \(Self.largestID) it allows; its \(sorted.count) entries were numbered again from 1")
            }
            state.entries = []
            state.bytes = 0
            state.latest = [:]
            for var entry in sorted {
                entry.undoneBy = nil
                entry.isRolledBack = false
                Self.insert(entry, into: &state)
            }
            for entry in state.entries where entry.reverts != nil {
                Self.mark(entry, in: &state)
            }
            state.nextID = max(state.nextID, (state.entries.last?.id ?? 0) + 1)
        }
    }

    /// The largest id a journal takes from a file: far from `Int64.max`, so ids always carry on.
    package static let largestID: Int64 = 1 << 53

    /// `entries` (in id order) numbered 1, 2, …, each `reverts` following its entry (dropped
    /// where that entry is not among them).
    private static func renumbered(_ entries: [JournalEntry]) -> [JournalEntry] {
        var new: [Int64: Int64] = [:]
        for (index, entry) in entries.enumerated() { new[entry.id] = Int64(index + 1) }
        return entries.map { entry in
            var entry = entry
            entry.id = new[entry.id] ?? entry.id
            entry.reverts = entry.reverts.flatMap { new[$0] }
            entry.group = entry.group.flatMap { new[$0] }
            return entry
        }
    }

    /// Ends ``beginLoading()``: the journal's past is in, or will never come.
    package func endLoading() {
        loading.leave()
    }

    /// Adds an entry, giving it the next id, and marks the entry it reverts as undone.
    /// - Returns: the entry as stored.
    @discardableResult
    package func record(_ entry: JournalEntry) -> JournalEntry {
        record([entry])[0]
    }

    /// Adds entries in order (one write to the store for all of them: a bulk delete or an
    /// outside rewrite of many keys costs one append), each given the next id. An entry whose
    /// key is not where the key's newest entry left it (`before` differs) is preceded by an
    /// `outside` entry for the change nobody reported (see ``heard(_:stored:revision:)``).
    /// - Returns: the entries as stored, one for each given.
    /// - Parameter group: the change of several keys these entries belong to: each is given its
    ///   id (``JournalEntry/group``; the first entry's when it has none yet); nil for none.
    @discardableResult
    package func record(_ entries: [JournalEntry], group: JournalGroup? = nil) -> [JournalEntry] {
        guard !entries.isEmpty else { return [] }
        loading.wait()
        let (own, stored, store) = state.withLock { state -> ([JournalEntry], [JournalEntry], (any JournalStore)?) in
            var own: [JournalEntry] = []
            var stored: [JournalEntry] = []
            for entry in entries {
                // The key is not where its newest entry left it: an outside change came first.
                if let heard = Self.outsideChange(
                    at: entry.address, to: entry.before, revision: entry.beforeRevision, place: entry.place,
                    secret: entry.isSecret, time: entry.time, in: state)
                {
                    stored.append(Self.insertNext(heard, into: &state))
                }
                var entry = entry
                if let group {
                    entry.group = group.id(claiming: state.nextID)
                    entry.change = group.name
                }
                let kept = Self.insertNext(entry, into: &state)
                group?.keep(kept)
                own.append(kept)
                stored.append(kept)
            }
            return (own, stored, state.store)
        }
        keep(stored, in: store)
        return own
    }

    /// Whether `address` holds an entry whose revision is not `revision` (nil: absent), so a
    /// reader should look again (``heard(_:stored:revision:)``): one lookup, no allocation.
    /// Wherever that entry was made: ``heard(_:stored:revision:place:)`` compares places.
    package func differs(at address: PreferenceAddress, revision: Revision?) -> Bool {
        loading.wait()
        return state.withLock { state in
            guard !state.latest.isEmpty else { return false }
            return Self.driftedEntry(at: address, revision: revision, place: nil, anyPlace: true, in: state) != nil
        }
    }

    /// Hands entries to the store, outside the lock; a store that stopped (its file set aside)
    /// is dropped, and its problem shown with the journal's.
    private func keep(_ entries: [JournalEntry], in store: (any JournalStore)?) {
        guard let store, let problem = store.append(entries, keeping: { [self] in self.entries() }) else { return }
        state.withLock { state in
            state.store = nil
            state.problems.append(problem)
        }
    }

    /// Tells the journal what is stored at `address` now (nil: nothing), as the agent just read
    /// it: when that is not what the key's newest entry left, somebody outside changed it since,
    /// and an `outside` entry records the change (from the value the entry left to this one),
    /// so it shows in the history and can be undone. A key the journal holds no entry of, or
    /// whose newest entry is a secret's from before a restart (its revisions were keyed by the
    /// agent's earlier run), is left alone.
    /// - Parameters:
    ///   - value: the stored value now; nil when the key is absent or only a default applies.
    ///   - revision: its revision as a client sees it (a secret's keyed one); nil when absent.
    ///   - place: where the container lives now: the change is recorded against that place
    ///     only, so a value seen in one project is never taken for a change of another's.
    ///   - secret: whether the key's scanner keeps secrets: the scanner says, never an entry
    ///     (one read back from a file may lie).
    package func heard(
        _ address: PreferenceAddress, stored value: PreferenceValue?, revision: Revision?, place: String?,
        secret: Bool
    ) {
        loading.wait()
        let (stored, store) = state.withLock { state -> ([JournalEntry], (any JournalStore)?) in
            guard !state.latest.isEmpty,
                let heard = Self.outsideChange(
                    at: address, to: value, revision: revision, place: place, secret: secret, time: Date(),
                    in: state)
            else { return ([], nil) }
            return ([Self.insertNext(heard, into: &state)], state.store)
        }
        guard !stored.isEmpty else { return }
        keep(stored, in: store)
    }

    /// The outside change that took `address` from what its newest entry left to `value`;
    /// nil when nothing changed, or the journal cannot say what was there.
    private static func outsideChange(
        at address: PreferenceAddress, to value: PreferenceValue?, revision: Revision?, place: String?, secret: Bool,
        time: Date, in state: State
    ) -> JournalEntry? {
        guard let index = driftedEntry(at: address, revision: revision, place: place, in: state) else { return nil }
        let last = state.entries[index]
        // A secret's earlier value is compared only with what this run kept of it.
        if secret && !last.isSecret { return nil }
        return JournalEntry(
            time: time, action: .outside, address: address, before: last.after, after: value,
            beforeRevision: last.afterRevision, afterRevision: revision, client: nil, isSecret: secret,
            valuesKept: last.valuesKept, place: place)
    }

    /// The index of `address`'s newest entry when it left another revision than `revision`
    /// and its revisions can be compared (not a secret's from before a restart), made at `place`.
    private static func driftedEntry(
        at address: PreferenceAddress, revision: Revision?, place: String?, anyPlace: Bool = false, in state: State
    ) -> Int? {
        guard let id = state.latest[address], let index = index(of: id, in: state) else { return nil }
        let last = state.entries[index]
        guard anyPlace || last.place == place, last.afterRevision != revision, !(last.isSecret && !last.valuesKept) else {
            return nil
        }
        return index
    }

    /// Gives `entry` the next id and inserts it, marking what it reverts.
    private static func insertNext(_ entry: JournalEntry, into state: inout State) -> JournalEntry {
        var entry = entry
        entry.id = state.nextID
        state.nextID += 1
        let kept = insert(entry, into: &state)
        mark(kept, in: &state)
        return kept
    }

    /// Every entry, oldest first.
    package func entries() -> [JournalEntry] {
        loading.wait()
        return state.withLock { $0.entries }
    }

    /// The entry with this id; nil when it is not (or no longer) in the journal.
    package func entry(_ id: Int64) -> JournalEntry? {
        loading.wait()
        return state.withLock { state in Self.index(of: id, in: state).map { state.entries[$0] } }
    }

    /// The lowest id still held; nil when the journal is empty.
    package var oldestID: Int64? {
        loading.wait()
        return state.withLock { $0.entries.first?.id }
    }

    /// The newest entry that an undo without an id takes back: a change made through Jarvis
    /// (not an outside one, not an undo), not undone, that `accepts` takes (its place, key, face).
    package func newestUndoable(where accepts: (JournalEntry) -> Bool = { _ in true }) -> JournalEntry? {
        loading.wait()
        let entries = state.withLock { $0.entries }
        return entries.last {
            $0.action != .outside && !$0.isUndo && !$0.isRollback && $0.undoneBy == nil && accepts($0)
        }
    }

    /// The newest undo not yet redone that `accepts` takes: what a redo without an id takes back.
    package func newestRedoable(where accepts: (JournalEntry) -> Bool = { _ in true }) -> JournalEntry? {
        loading.wait()
        let entries = state.withLock { $0.entries }
        return entries.last { $0.isUndo && $0.undoneBy == nil && accepts($0) }
    }

    /// The entries of the change `group` names (``JournalEntry/group``) that still stand: not
    /// taken back, not a rollback; oldest first.
    package func standing(inGroup group: Int64) -> [JournalEntry] {
        loading.wait()
        return state.withLock { state in
            // A group's entries follow its first (which may have fallen out).
            let start = Self.index(of: group, in: state) ?? 0
            return state.entries[start...].filter { $0.group == group && $0.undoneBy == nil && !$0.isRollback }
        }
    }

    /// For each of `addresses` the journal holds an entry of, the revision its newest entry
    /// left (nil: absent), counting only entries made at `place`; one pass over the journal.
    package func newestAfterRevisions(
        at addresses: Set<PreferenceAddress>, place: String?
    ) -> [PreferenceAddress: Revision?] {
        loading.wait()
        return state.withLock { state in
            var found: [PreferenceAddress: Revision?] = [:]
            for entry in state.entries where entry.place == place && addresses.contains(entry.address) {
                found[entry.address] = .some(entry.afterRevision)
            }
            return found
        }
    }

    /// Appends, dropping the oldest entries to stay within the budget; an entry larger than
    /// the whole budget is kept without its values (it cannot be undone).
    @discardableResult
    private static func insert(_ entry: JournalEntry, into state: inout State) -> JournalEntry {
        var entry = entry
        var weight = entry.weight
        if weight > state.budget {
            entry.before = nil
            entry.after = nil
            entry.undoHint = nil
            entry.valuesKept = false
            weight = entry.weight
        }
        // Even without its values it does not fit: kept nowhere, and nothing else is dropped for it.
        guard weight <= state.budget else { return entry }
        var dropped = 0
        while state.bytes + weight > state.budget, dropped < state.entries.count {
            let old = state.entries[dropped]
            state.bytes -= old.weight
            if state.latest[old.address] == old.id { state.latest[old.address] = nil }
            dropped += 1
        }
        state.entries.removeFirst(dropped)
        state.entries.append(entry)
        state.bytes += weight
        state.latest[entry.address] = entry.id
        return entry
    }

    private static func mark(_ entry: JournalEntry, in state: inout State) {
        guard let reverts = entry.reverts, let index = index(of: reverts, in: state) else { return }
        // A redo marks only the undo it took back: the change that undo took back stays marked,
        // so a later undo takes back the redo itself and never toggles.
        state.entries[index].undoneBy = entry.id
        guard entry.isRollback else { return }
        state.entries[index].isRolledBack = true
        // A rolled-back undo or redo never happened: what it took back stands again.
        if let earlier = state.entries[index].reverts, let before = Self.index(of: earlier, in: state),
            state.entries[before].undoneBy == reverts
        {
            state.entries[before].undoneBy = nil
        }
    }

    private static func index(of id: Int64, in state: State) -> Int? {
        // Ids increase along the array: a binary search.
        var low = 0
        var high = state.entries.count
        while low < high {
            let middle = (low + high) / 2
            if state.entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < state.entries.count && state.entries[low].id == id ? low : nil
    }
}
