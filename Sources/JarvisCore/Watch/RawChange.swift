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
    /// In the backlog of a secret scanner, in place of `old` and `new` (which are dropped, so
    /// no secret value outlives the change): the items as a watcher that does not reveal
    /// sees them.
    package var sealed: Sealed?

    package init(kind: Kind, key: String, old: ScannedEntry?, new: ScannedEntry?) {
        self.kind = kind
        self.key = key
        self.old = old
        self.new = new
    }

    /// A change with its secret values replaced by their masked items.
    package struct Sealed: Sendable, Hashable {
        /// The masked item before; nil when added.
        package var old: PreferenceItem?
        /// The masked item after; nil when removed.
        package var new: PreferenceItem?
        /// Hidden by the configuration when sealed: a replay leaves it out.
        package var isHidden: Bool

        package init(old: PreferenceItem?, new: PreferenceItem?, isHidden: Bool) {
            self.old = old
            self.new = new
            self.isHidden = isHidden
        }

        /// The bytes the masked items hold, roughly.
        var weight: Int { 2 * 160 }
    }
}
