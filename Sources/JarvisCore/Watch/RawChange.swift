/// One key's change inside a container, with the raw entries before and after; the hub turns
/// them into items (masked where due) for each watcher.
package struct RawChange: Sendable, Hashable {
    /// What happened to the key; the wire names are the raw values.
    package enum Kind: String, Sendable, Hashable {
        case added, updated, removed
    }

    package var kind: Kind
    package var key: String
    /// The entry before; nil when added.
    package var old: ScannedEntry?
    /// The entry after; nil when removed.
    package var new: ScannedEntry?
}
