import JarvisCore

extension InspectorState {
    /// What changed between `before` (what a face showed while its agent was gone) and this
    /// state (read again when it came back): keys added, changed or removed, in natural order.
    public func changes(since before: InspectorState) -> [PreferenceAddress] {
        var changed: [PreferenceAddress] = []
        for (address, item) in items {
            guard let old = before.items[address] else {
                if !Self.isUnset(item) { changed.append(address) }
                continue
            }
            if old.revision != item.revision || old.layer != item.layer || Self.isUnset(old) != Self.isUnset(item) {
                changed.append(address)
            }
        }
        for (address, old) in before.items where items[address] == nil && !Self.isUnset(old) { changed.append(address) }
        return changed.sorted { lhs, rhs in
            lhs.key != rhs.key ? lhs.key.naturallyBefore(rhs.key) : (lhs.container, lhs.scanner) < (rhs.container, rhs.scanner)
        }
    }

    /// Catches up with what changed while the agent was gone: each key still here is marked
    /// changed (old → new, as a live change is), and the message says how many changed.
    public mutating func catchUp(from before: InspectorState, now: ContinuousClock.Instant) -> InspectorMessage {
        let changed = changes(since: before)
        for address in changed where items[address] != nil { mark(address, before: before.items[address], now: now) }
        return .agentBack(changed: changed)
    }
}
