/// The entries of one change of several keys, as its writes record them one container at a
/// time (a restore, an undo of such a change): the first recorded entry's id becomes the
/// ``JournalEntry/group`` of every entry recorded with it.
///
/// Thread-safe; one per change, handed to each write in its ``WriteOrigin``.
package final class JournalGroup: Sendable, Hashable {
    private struct State {
        var id: Int64?
        var entries: [JournalEntry] = []
    }

    private let state = Locked(State())

    /// The name the client gave the change (`change` on `set` and `delete`: an import's, a
    /// fan-out's), recorded in each entry as ``JournalEntry/change``; nil for one the agent
    /// started (a restore, an undo of several keys).
    package let name: String?

    package init(name: String? = nil) {
        self.name = name
    }

    /// One group is equal only to itself.
    package static func == (left: JournalGroup, right: JournalGroup) -> Bool { left === right }

    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The group's id: its first entry's; nil while nothing was recorded.
    package var id: Int64? { state.withLock { $0.id } }

    /// The entries recorded in the group so far, oldest first.
    package var entries: [JournalEntry] { state.withLock { $0.entries } }

    /// The newest entry recorded in the group for `address`; nil when none was.
    package func entry(at address: PreferenceAddress) -> JournalEntry? {
        state.withLock { state in state.entries.last { $0.address == address } }
    }

    /// The entry recorded in the group that takes back entry `id` (an undo's, a redo's); nil
    /// when none does.
    package func entry(reverting id: Int64) -> JournalEntry? {
        state.withLock { state in state.entries.last { $0.reverts == id } }
    }

    /// The group's id, taking `next` (the id the journal gives the entry it records now) when
    /// the group has none yet. Called by the journal under its own lock.
    func id(claiming next: Int64) -> Int64 {
        state.withLock { state in
            let id = state.id ?? next
            state.id = id
            return id
        }
    }

    /// Keeps `entry`, as the journal stored it, among the group's.
    func keep(_ entry: JournalEntry) {
        state.withLock { $0.entries.append(entry) }
    }
}
