import JarvisCore

/// Never serving a value that could not be written back: the built-in scanners stop at
/// ``PreferenceValue/maxDepth`` themselves, and this catches what a host's own scanner serves.
extension AgentService {
    /// Why `item` is not served, or nil when its value is within the depth the wire carries back.
    static func tooDeep(_ item: PreferenceItem) -> String? {
        guard let depth = item.value?.depth, depth > PreferenceValue.maxDepth else { return nil }
        return "'\(item.address.key)' nests \(depth) levels of arrays and dictionaries, deeper than the "
            + "\(PreferenceValue.maxDepth) a client could write back, so it is not served"
    }

    /// The items that can be served, and a problem naming each one that cannot.
    static func servable(_ items: [PreferenceItem]) -> (items: [PreferenceItem], problems: [Wire.Container]) {
        var problems: [Wire.Container] = []
        let kept = items.filter { item in
            guard let reason = tooDeep(item) else { return true }
            problems.append(
                Wire.Container(
                    scanner: item.address.scanner, name: item.address.container, writable: false, problem: reason))
            return false
        }
        return (kept, problems)
    }

    /// `item`, or `.storage` when its value is too deep to serve.
    static func servable(_ item: PreferenceItem) throws(JarvisError) -> PreferenceItem {
        if let reason = tooDeep(item) { throw JarvisError(.storage, reason) }
        return item
    }
}
