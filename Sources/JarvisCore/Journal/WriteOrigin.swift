/// Who asked for a write, for the journal: a client of the agent, or the host's own process
/// (the in-app panel, or code calling the hub). An undo or redo names the entry it takes back.
package struct WriteOrigin: Sendable, Hashable {
    /// The client as the audit trail sees it.
    package var client: AuditRecord.Client
    /// What the journal calls the write; nil derives it from the edit (set, delete, reset).
    package var action: JournalEntry.Action?
    /// The journal entry an undo or redo takes back.
    package var reverts: Int64?
    /// For an undo of a removal: the scanner's hint to put the key back exactly.
    package var undoHint: [UInt8]?
    /// For a write that takes back an entry: where the entry was made. The write goes through
    /// only while the container still lives there (checked under the container's write lock).
    package var place: Place?
    /// The change of several keys this write is one of: its journal entries join the group.
    package var group: JournalGroup?

    /// Where the entry a write takes back was made.
    package struct Place: Sendable, Hashable {
        /// The entry taken back.
        package var entry: Int64
        /// Its ``JournalEntry/place``.
        package var place: String?

        package init(entry: Int64, place: String?) {
            self.entry = entry
            self.place = place
        }
    }

    package init(
        client: AuditRecord.Client, action: JournalEntry.Action? = nil, reverts: Int64? = nil, undoHint: [UInt8]? = nil,
        place: Place? = nil, group: JournalGroup? = nil
    ) {
        self.group = group
        self.place = place
        self.client = client
        self.action = action
        self.reverts = reverts
        self.undoHint = undoHint
    }

    /// A write made in the host's own process, through the hub.
    package static let inProcess = WriteOrigin(
        client: AuditRecord.Client(transport: .inProcess, peer: "host", name: nil))
}
