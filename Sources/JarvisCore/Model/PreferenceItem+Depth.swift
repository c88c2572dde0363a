/// Never serving a value that could not be written back: the built-in scanners stop at
/// ``PreferenceValue/maxDepth`` themselves, and this catches what a host's own scanner serves.
/// In the model, so every layer that serves items (the agent's answers, the watch engine's
/// notifications) asks the same question without calling the layer above it.
extension PreferenceItem {
    /// Why the item is not served, or nil when its value is within the depth the wire carries back.
    package var depthProblem: String? {
        guard let depth = value?.depth, depth > PreferenceValue.maxDepth else { return nil }
        return "'\(address.key)' nests \(depth) levels of arrays and dictionaries, deeper than the "
            + "\(PreferenceValue.maxDepth) a client could write back, so it is not served"
    }
}
