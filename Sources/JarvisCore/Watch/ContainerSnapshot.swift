/// What one container held the last time the change engine read it: the baseline the next
/// read is compared with.
package struct ContainerSnapshot: Sendable, Hashable {
    /// The container as the scanner listed it (its writability shapes the items).
    package var info: ContainerInfo
    /// Visible entries by key.
    package var entries: [String: ScannedEntry]
    /// The container's version taken just before it was read (``ContainerVersion``), so a
    /// change made during the read makes it differ; nil when the scanner cannot tell.
    package var version: ContainerVersion?

    package init(info: ContainerInfo, entries: [ScannedEntry], version: ContainerVersion? = nil) {
        self.info = info
        self.version = version
        var byKey: [String: ScannedEntry] = [:]
        // Sized once: a 100,000-key suite is read again after every change.
        byKey.reserveCapacity(entries.count)
        for entry in entries { byKey[entry.key] = entry }
        self.entries = byKey
    }

    /// The real changes from `old` to `new`, in key order; nil snapshots mean the container
    /// did not exist. Equal entries (same value, layer, encoding, writability) are no change.
    ///
    /// One lookup per key of each side; only the changes are sorted (one change in a
    /// 100,000-key suite sorts one key, not every key of both sides).
    package static func changes(from old: ContainerSnapshot?, to new: ContainerSnapshot?) -> [RawChange] {
        let before = old?.entries ?? [:]
        let after = new?.entries ?? [:]
        var changes: [RawChange] = []
        for (key, now) in after {
            if let was = before[key] {
                if was != now { changes.append(RawChange(kind: .updated, key: key, old: was, new: now)) }
            } else {
                changes.append(RawChange(kind: .added, key: key, old: nil, new: now))
            }
        }
        for (key, removed) in before where after[key] == nil {
            changes.append(RawChange(kind: .removed, key: key, old: removed, new: nil))
        }
        changes.sort { $0.key < $1.key }
        return changes
    }

    /// Sets some keys to what was read of them now (`found`; a key absent from it is gone or
    /// hidden) and returns their real changes, in key order.
    package mutating func patch(_ keys: Set<String>, found: [String: ScannedEntry]) -> [RawChange] {
        var changes: [RawChange] = []
        for key in keys.sorted() {
            let was = entries[key]
            let now = found[key]
            entries[key] = now
            switch (was, now) {
            case (nil, let now?): changes.append(RawChange(kind: .added, key: key, old: nil, new: now))
            case (let was?, nil): changes.append(RawChange(kind: .removed, key: key, old: was, new: nil))
            case (let was?, let now?) where was != now:
                changes.append(RawChange(kind: .updated, key: key, old: was, new: now))
            default: break
            }
        }
        return changes
    }
}

