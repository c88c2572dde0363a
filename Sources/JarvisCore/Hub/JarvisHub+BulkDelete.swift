/// Deleting every key of a container that matches a pattern, or that the key catalog does
/// not declare, with a dry run first. One write transaction each.
extension JarvisHub {
    /// Removes every stored, visible key of one container whose name matches `pattern`.
    ///
    /// Hidden keys are never matched, and a hidden container answers as one that does not
    /// exist: nothing matches. The writes are one transaction and one journal entry group (one
    /// undo takes them all back), each key removed by its own scanner write: if one fails, the
    /// keys removed before it are put back and the error says so.
    /// - Parameter dryRun: list what would go and change nothing.
    /// - Returns: the matched items as they were, in key order.
    /// - Throws: ``JarvisError`` `.readOnly` (before anything is removed) when a matched key
    ///   cannot be written, or as ``delete(_:expectedRevision:)``.
    @discardableResult
    public func delete(
        matching pattern: GlobPattern,
        scanner scannerID: String,
        container name: String,
        dryRun: Bool = false
    ) throws(JarvisError) -> [PreferenceItem] {
        try write(
            PreferenceAddress(scanner: scannerID, container: name, key: ""),
            .deleteKeys(.matching(pattern), dryRun: dryRun)
        ).items
    }

    /// Removes every stored, visible key of one container that the host's key catalog does
    /// not declare: the orphans a rename or a removed feature left behind.
    /// - Parameter dryRun: list what would go and change nothing.
    /// - Returns: the removed (or, for a dry run, the undeclared) items, in key order.
    /// - Throws: ``JarvisError`` `.invalidParams` when the catalog declares nothing in the
    ///   container (every key would count), or as ``delete(matching:scanner:container:dryRun:)``.
    @discardableResult
    public func deleteUndeclared(scanner scannerID: String, container name: String, dryRun: Bool = false)
        throws(JarvisError) -> [PreferenceItem]
    {
        try write(
            PreferenceAddress(scanner: scannerID, container: name, key: ""), .deleteKeys(.undeclared, dryRun: dryRun)
        ).items
    }
}
