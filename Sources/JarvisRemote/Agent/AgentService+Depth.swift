import JarvisCore

/// Never serving a value that could not be written back (see `PreferenceItem.depthProblem`).
extension AgentService {
    /// The items that can be served, and a problem naming each one that cannot.
    static func servable(_ items: [PreferenceItem]) -> (items: [PreferenceItem], problems: [Wire.Container]) {
        var problems: [Wire.Container] = []
        let kept = items.filter { item in
            guard let reason = item.depthProblem else { return true }
            problems.append(
                Wire.Container(
                    scanner: item.address.scanner, name: item.address.container, writable: false, problem: reason))
            return false
        }
        return (kept, problems)
    }

    /// `item`, or `.storage` when its value is too deep to serve.
    static func servable(_ item: consuming PreferenceItem) throws(JarvisError) -> PreferenceItem {
        if let reason = item.depthProblem { throw JarvisError(.storage, reason) }
        return item
    }
}
