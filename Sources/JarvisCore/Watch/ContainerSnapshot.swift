/// What one container held the last time the change engine read it: the baseline the next
/// read is compared with.
package struct ContainerSnapshot: Sendable, Hashable {
    /// The container as the scanner listed it (its writability shapes the items).
    package var info: ContainerInfo
    /// Visible entries by key.
    package var entries: [String: ScannedEntry]

    package init(info: ContainerInfo, entries: [ScannedEntry]) {
        self.info = info
        var byKey: [String: ScannedEntry] = [:]
        for entry in entries { byKey[entry.key] = entry }
        self.entries = byKey
    }

    /// The real changes from `old` to `new`, in key order; nil snapshots mean the container
    /// did not exist. Equal entries (same value, layer, encoding, writability) are no change.
    package static func changes(from old: ContainerSnapshot?, to new: ContainerSnapshot?) -> [RawChange] {
        let before = old?.entries ?? [:]
        let after = new?.entries ?? [:]
        var changes: [RawChange] = []
        for key in Set(before.keys).union(after.keys).sorted() {
            switch (before[key], after[key]) {
            case (nil, let added?):
                changes.append(RawChange(kind: .added, key: key, old: nil, new: added))
            case (let removed?, nil):
                changes.append(RawChange(kind: .removed, key: key, old: removed, new: nil))
            case (let was?, let now?) where was != now:
                changes.append(RawChange(kind: .updated, key: key, old: was, new: now))
            default:
                continue
            }
        }
        return changes
    }
}
