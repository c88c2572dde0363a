import JarvisCore

/// How two sets of items differ, by address: what the second side adds, removes and changes.
///
/// Values are compared by content (``Revision/init(of:)``, which tells `0.0` from `-0.0` and
/// equal NaNs apart from none), so a lossless round trip compares as unchanged. When either
/// side is a masked secret, only the revisions the agents reported can be compared.
public struct SnapshotDiff: Sendable, Hashable {
    /// One address whose value differs.
    public struct Change: Sendable, Hashable {
        /// The item on the first side.
        public var old: PreferenceItem
        /// The item on the second side.
        public var new: PreferenceItem
    }

    /// Only on the second side.
    public var added: [PreferenceItem] = []
    /// Only on the first side.
    public var removed: [PreferenceItem] = []
    /// On both sides with different values (or types).
    public var changed: [Change] = []
    /// On both sides with equal values.
    public var unchanged: [PreferenceItem] = []
    /// On one side only, where the other side's snapshot left that secret out because it was
    /// masked: its value is unknown there, so it is neither added nor removed.
    public var notCompared: [PreferenceItem] = []

    /// Compares `old` with `new`.
    /// - Parameter leftOut: addresses a side's snapshot left out as masked secrets
    ///   (``JarvisSnapshot/leftOut``); an item only the other side has there is not compared.
    public init(from old: [PreferenceItem], to new: [PreferenceItem], leftOut: Set<PreferenceAddress> = []) {
        var before: [PreferenceAddress: PreferenceItem] = [:]
        for item in old { before[item.address] = item }
        for item in new.sorted(by: JarvisSnapshot.order) {
            guard let previous = before.removeValue(forKey: item.address) else {
                if leftOut.contains(item.address) {
                    notCompared.append(item)
                } else {
                    added.append(item)
                }
                continue
            }
            if Self.same(previous, item) {
                unchanged.append(item)
            } else {
                changed.append(Change(old: previous, new: item))
            }
        }
        for item in before.values.sorted(by: JarvisSnapshot.order) {
            if leftOut.contains(item.address) {
                notCompared.append(item)
            } else {
                removed.append(item)
            }
        }
        notCompared.sort(by: JarvisSnapshot.order)
    }

    /// Whether nothing was added, removed or changed (what was not compared does not count).
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// Whether two items hold the same value.
    public static func same(_ left: PreferenceItem, _ right: PreferenceItem) -> Bool {
        guard left.type == right.type else { return false }
        if let leftValue = left.value, let rightValue = right.value {
            return Revision(of: leftValue) == Revision(of: rightValue)
        }
        return left.revision == right.revision
    }
}
