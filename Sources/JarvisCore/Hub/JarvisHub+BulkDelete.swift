/// Deleting every key of a container that matches a pattern, with a dry run first.
extension JarvisHub {
    /// Removes every stored, visible key of one container whose name matches `pattern`.
    ///
    /// Hidden keys are never matched. The writes are serialized with every other write, but
    /// each key is removed by its own scanner write: if one fails, the keys before it are gone
    /// and the error says how many.
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
        let probe = PreferenceAddress(scanner: scannerID, container: name, key: "")
        let (scanner, container, configuration) =
            dryRun ? try resolve(probe, checksKey: false) : try writableTarget(probe, checksKey: false)
        if dryRun {
            return try removeMatching(
                pattern, scanner: scanner, container: container, configuration: configuration, dryRun: true)
        }
        return try serializedWrite { () throws(JarvisError) -> [PreferenceItem] in
            try removeMatching(
                pattern, scanner: scanner, container: container, configuration: configuration, dryRun: false)
        }
    }

    private func removeMatching(
        _ pattern: GlobPattern,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration,
        dryRun: Bool
    ) throws(JarvisError) -> [PreferenceItem] {
        let rules = ScannerVisibility(scanner: scanner, configuration: configuration)
        let name = container.name
        let entries: [ScannedEntry]
        do {
            entries = try scanner.read(ReadRequest(container: name))
        } catch {
            throw Self.wrap(error)
        }
        let matched =
            entries
            .filter { $0.layer == .stored && rules.shows(key: $0.key, in: name) && pattern.matches($0.key) }
            .sorted { $0.key < $1.key }
        let items = matched.map {
            item($0, scanner: scanner, container: container, configuration: configuration, reveal: false)
        }
        guard !dryRun else { return items }
        if let locked = items.first(where: { !$0.isWritable }) {
            throw JarvisError(.readOnly, "'\(locked.address.key)' in '\(name)' is read-only; nothing was removed")
        }
        for (done, entry) in matched.enumerated() {
            do {
                try perform(WriteRequest(container: name, key: entry.key, change: .delete), on: scanner)
            } catch {
                throw JarvisError(
                    error.code,
                    "\(error.message) (removing '\(entry.key)'; \(done) of \(matched.count) keys were removed before it)"
                )
            }
        }
        return items
    }
}
