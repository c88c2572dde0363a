import Foundation

/// One change in the agent's journal: a key's value before and after, both revisions, who
/// made it and when, so it can be shown and taken back (``JarvisHub/undo(_:)``).
///
/// For a nested edit, `before` and `after` are the key's whole values and `pointer` names the
/// member that changed; its undo restores that member only.
package struct JournalEntry: Sendable, Hashable {
    /// What happened. A struct, not an enum, so that new kinds never break a `switch`.
    package struct Action: RawRepresentable, Sendable, Hashable {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }

        /// A client stored a value.
        package static let set = Action(rawValue: "set")
        /// A client removed a value (a bulk delete writes one entry per key, sharing a ``JournalEntry/group``).
        package static let delete = Action(rawValue: "delete")
        /// A client reset a key to its default.
        package static let reset = Action(rawValue: "reset")
        /// A change made outside the agent (the program itself or another process), seen by
        /// the agent's change engine while somebody watched, or found when the key was next
        /// read or written (``ChangeJournal/heard(_:stored:revision:)``).
        package static let outside = Action(rawValue: "outside")
        /// An undo: `reverts` names the entry taken back.
        package static let undo = Action(rawValue: "undo")
        /// A redo: `reverts` names the undo taken back.
        package static let redo = Action(rawValue: "redo")
        /// One key of a restore to an earlier moment.
        package static let restore = Action(rawValue: "restore")
        /// One key of a change refused part way (a restore, an undo of several keys), put back
        /// as it was before that change: `reverts` names the entry it put back. Neither undo nor
        /// redo ever takes it (or the entry it put back) back: the change never happened.
        package static let rollback = Action(rawValue: "rollback")
    }

    /// Increasing across agent runs (the journal file carries it on).
    package var id: Int64
    package var time: Date
    package var action: Action
    package var address: PreferenceAddress
    /// The member a nested edit changed; nil for the whole value.
    package var pointer: JSONPointer?
    /// The whole value before; nil when nothing was stored (or, when `valuesKept` is false,
    /// unknown).
    package var before: PreferenceValue?
    /// The whole value after; nil when nothing is stored any more (or unknown, as `before`).
    package var after: PreferenceValue?
    /// The revision a client saw before; nil when nothing was stored.
    package var beforeRevision: Revision?
    /// The revision the change left; nil when nothing is stored any more.
    package var afterRevision: Revision?
    /// Who made the change; nil for an outside change.
    package var client: AuditRecord.Client?
    /// The key belongs to a secret scanner: its values never leave the agent and are never
    /// written to the journal file.
    package var isSecret: Bool
    /// Whether `before` and `after` are known. False for a secret's entry read back after a
    /// restart, and for an entry too large for the journal's budget: it cannot be undone.
    package var valuesKept: Bool
    /// For an undo or redo, the entry it took back.
    package var reverts: Int64?
    /// The undo (or redo) that took this entry back; nil while it stands.
    package var undoneBy: Int64?
    /// For a removal: the scanner's hint to put the key back exactly (``WriteResult/undoHint``).
    package var undoHint: [UInt8]?
    /// Where the container lived when the change was made (``PreferenceScanner/location(of:)``:
    /// a file's resolved path, a suite's domain and app); nil for a scanner whose values live in
    /// the program itself. An undo, redo or restore writes only where the container still
    /// lives there.
    package var place: String?
    /// For one key of a change of several (a restore, a bulk delete, an import, an undo of
    /// such a change): the id of the change's first entry, which every entry of it shares. An
    /// undo or redo takes back every entry of a group, or none. Nil for a change of one key.
    package var group: Int64?
    /// The name the client gave the change this entry is one write of (``JournalGroup/name``:
    /// a fan-out's id on every agent it reached); nil for a write sent without one.
    package var change: String?
    /// Whether `undoneBy` names a ``Action/rollback``: this entry's change was refused part way
    /// and put back. Derived from the journal's entries, never kept in the file.
    package var isRolledBack = false

    package init(
        id: Int64 = 0, time: Date = Date(), action: Action, address: PreferenceAddress, pointer: JSONPointer? = nil,
        before: PreferenceValue?, after: PreferenceValue?, beforeRevision: Revision?, afterRevision: Revision?,
        client: AuditRecord.Client?, isSecret: Bool, valuesKept: Bool = true, reverts: Int64? = nil,
        place: String? = nil
    ) {
        self.place = place
        self.id = id
        self.time = time
        self.action = action
        self.address = address
        self.pointer = pointer
        self.before = before
        self.after = after
        self.beforeRevision = beforeRevision
        self.afterRevision = afterRevision
        self.client = client
        self.isSecret = isSecret
        self.valuesKept = valuesKept
        self.reverts = reverts
    }

    /// The changed member (or whole value) before; nil when it was absent.
    package var memberBefore: PreferenceValue? { Self.member(pointer, of: before) }
    /// The changed member (or whole value) after; nil when it is absent.
    package var memberAfter: PreferenceValue? { Self.member(pointer, of: after) }

    /// Whether undo or redo may pick this entry without an id: it is not itself an undo.
    package var isUndo: Bool { action == .undo }

    /// Whether this entry put back one key of a change refused part way (``Action/rollback``):
    /// no undo or redo takes it back, with or without an id.
    package var isRollback: Bool { action == .rollback }

    private static func member(_ pointer: JSONPointer?, of value: PreferenceValue?) -> PreferenceValue? {
        guard let value else { return nil }
        guard let pointer, !pointer.isWhole else { return value }
        return try? pointer.value(in: value)
    }

    /// The bytes this entry holds in memory, roughly: its values' JSON plus a fixed part for
    /// the names, revisions and client.
    package var weight: Int {
        var bytes = 256 + address.scanner.utf8.count + address.container.utf8.count + address.key.utf8.count
        bytes += (group == nil ? 0 : 8) + (undoHint?.count ?? 0) * 4 / 3 + (pointer?.description.utf8.count ?? 0) + (client?.peer.utf8.count ?? 0) + (client?.name?.utf8.count ?? 0)
        bytes += change?.utf8.count ?? 0
        for value in [before, after] {
            if let value { bytes += value.minimumJSONBytes(countingPast: Int.max) }
        }
        return bytes
    }
}
