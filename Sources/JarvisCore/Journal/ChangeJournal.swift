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
            let sorted = (state.entries + byID.values).sorted { $0.id < $1.id }
            state.entries = []
            state.bytes = 0
            for var entry in sorted {
                entry.undoneBy = nil
                Self.insert(entry, into: &state)
            }
            for entry in state.entries where entry.reverts != nil {
                Self.mark(entry, in: &state)
            }
            state.nextID = max(state.nextID, (state.entries.last?.id ?? 0) + 1)
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
    /// outside rewrite of many keys costs one append), each given the next id.
    /// - Returns: the entries as stored.
    @discardableResult
    package func record(_ entries: [JournalEntry]) -> [JournalEntry] {
        guard !entries.isEmpty else { return [] }
        loading.wait()
        let (stored, store) = state.withLock { state -> ([JournalEntry], (any JournalStore)?) in
            var stored: [JournalEntry] = []
            for var entry in entries {
                entry.id = state.nextID
                state.nextID += 1
                let kept = Self.insert(entry, into: &state)
                Self.mark(kept, in: &state)
                stored.append(kept)
            }
            return (stored, state.store)
        }
        store?.append(stored) { [self] in self.entries() }
        return stored
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

    /// The newest entry that an undo without an id takes back: not an undo, not undone.
    package func newestUndoable() -> JournalEntry? {
        loading.wait()
        return state.withLock { state in state.entries.last { !$0.isUndo && $0.undoneBy == nil } }
    }

    /// The newest undo not yet redone: what a redo without an id takes back.
    package func newestRedoable() -> JournalEntry? {
        loading.wait()
        return state.withLock { state in state.entries.last { $0.isUndo && $0.undoneBy == nil } }
    }

    /// For each of `addresses` the journal holds an entry of, the revision its newest entry
    /// left (nil: absent); one pass over the journal.
    package func newestAfterRevisions(at addresses: Set<PreferenceAddress>) -> [PreferenceAddress: Revision?] {
        loading.wait()
        return state.withLock { state in
            var found: [PreferenceAddress: Revision?] = [:]
            for entry in state.entries where addresses.contains(entry.address) {
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
            state.bytes -= state.entries[dropped].weight
            dropped += 1
        }
        state.entries.removeFirst(dropped)
        state.entries.append(entry)
        state.bytes += weight
        return entry
    }

    private static func mark(_ entry: JournalEntry, in state: inout State) {
        guard let reverts = entry.reverts, let index = index(of: reverts, in: state) else { return }
        // A redo marks only the undo it took back: the change that undo took back stays marked,
        // so a later undo takes back the redo itself and never toggles.
        state.entries[index].undoneBy = entry.id
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
