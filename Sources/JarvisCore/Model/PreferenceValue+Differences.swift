/// Where two versions of a value differ, place by place: what a change to a nested value
/// really changed (`/tags/0: swift → rust`), instead of the whole value twice.
extension PreferenceValue {
    /// One place that differs.
    public struct Difference: Sendable, Hashable {
        /// Where, inside the value (empty: the value as a whole).
        public var pointer: JSONPointer
        /// What was there; nil when the place was added.
        public var old: PreferenceValue?
        /// What is there now; nil when the place was removed.
        public var new: PreferenceValue?
    }

    /// The places where `new` differs from this value, deepest first found, in key order: a
    /// dictionary's or array's members are compared one by one, anything else as a whole.
    /// - Parameter limit: the most differences returned (a value rewritten wholesale gives
    ///   many); the rest are left out.
    public func differences(to new: PreferenceValue, limit: Int = 100) -> [Difference] {
        var found: [Difference] = []
        Self.compare(self, new, at: [], into: &found, limit: limit)
        return found
    }

    private static func compare(
        _ old: PreferenceValue, _ new: PreferenceValue, at path: [String], into found: inout [Difference], limit: Int
    ) {
        guard found.count < limit, old != new else { return }
        switch (old, new) {
        case (.dictionary(let before), .dictionary(let after)):
            for key in Set(before.keys).union(after.keys).sorted() {
                guard found.count < limit else { return }
                switch (before[key], after[key]) {
                case (let was?, let now?): compare(was, now, at: path + [key], into: &found, limit: limit)
                case (let was?, nil): found.append(Difference(pointer: JSONPointer(tokens: path + [key]), old: was, new: nil))
                case (nil, let now?): found.append(Difference(pointer: JSONPointer(tokens: path + [key]), old: nil, new: now))
                case (nil, nil): break
                }
            }
        case (.array(let before), .array(let after)):
            for index in 0..<max(before.count, after.count) {
                guard found.count < limit else { return }
                let was = index < before.count ? before[index] : nil
                let now = index < after.count ? after[index] : nil
                if let was, let now {
                    compare(was, now, at: path + [String(index)], into: &found, limit: limit)
                } else {
                    found.append(Difference(pointer: JSONPointer(tokens: path + [String(index)]), old: was, new: now))
                }
            }
        default:
            found.append(Difference(pointer: JSONPointer(tokens: path), old: old, new: new))
        }
    }
}
