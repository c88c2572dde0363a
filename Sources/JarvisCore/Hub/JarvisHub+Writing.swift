/// Set and delete: the only paths by which a client changes the host's storage.
extension JarvisHub {
    /// Stores a value, creating the key if needed.
    /// - Parameter expectedRevision: when given, the write happens only if the stored value
    ///   still has this revision; otherwise `.conflict` is thrown and nothing is written.
    /// - Returns: the item as stored afterwards.
    /// - Throws: ``JarvisError``: `.readOnly` when editing is off or the item cannot be written,
    ///   `.conflict`, `.notFound` for hidden addresses, `.storage` when the write failed.
    @discardableResult
    public func set(
        _ address: PreferenceAddress,
        to value: PreferenceValue,
        expectedRevision: Revision? = nil
    ) throws(JarvisError) -> PreferenceItem {
        let (scanner, container, configuration) = try writableTarget(address)
        defer { writeObservers.notify(address) }
        return try serializedWrite { () throws(JarvisError) -> PreferenceItem in
            let current = try read(address, scanner: scanner)
            try check(
                expectedRevision, against: current, scanner: scanner, container: container, configuration: configuration
            )
            if let current, !current.isWritable {
                throw JarvisError(.readOnly, "'\(address.key)' in '\(address.container)' is read-only")
            }
            try configuration.catalog.check(value, at: address)
            let encoding = current?.layer == .stored ? current?.encoding : nil
            try perform(
                WriteRequest(container: address.container, key: address.key, change: .set(value), encoding: encoding),
                on: scanner)
            guard let stored = try read(address, scanner: scanner) else {
                throw JarvisError(
                    .storage, "'\(address.key)' was written but cannot be read back from '\(address.container)'")
            }
            return item(stored, scanner: scanner, container: container, configuration: configuration, reveal: false)
        }
    }

    /// Removes a stored value.
    /// - Parameter expectedRevision: when given, the delete happens only if the stored value
    ///   still has this revision; otherwise `.conflict` is thrown and nothing is removed.
    /// - Returns: the item as it was before removal.
    /// - Throws: ``JarvisError``: `.notFound` when nothing is stored, `.readOnly`, `.conflict`.
    @discardableResult
    public func delete(_ address: PreferenceAddress, expectedRevision: Revision? = nil) throws(JarvisError)
        -> PreferenceItem
    {
        let (scanner, container, configuration) = try writableTarget(address)
        defer { writeObservers.notify(address) }
        return try serializedWrite { () throws(JarvisError) -> PreferenceItem in
            let current = try read(address, scanner: scanner)
            guard let current, current.layer == .stored else {
                throw .noKey(address.key, in: address.container)
            }
            try check(
                expectedRevision, against: current, scanner: scanner, container: container, configuration: configuration
            )
            guard current.isWritable else {
                throw JarvisError(.readOnly, "'\(address.key)' in '\(address.container)' is read-only")
            }
            try perform(WriteRequest(container: address.container, key: address.key, change: .delete), on: scanner)
            return item(current, scanner: scanner, container: container, configuration: configuration, reveal: false)
        }
    }

    func writableTarget(_ address: PreferenceAddress, checksKey: Bool = true) throws(JarvisError) -> (
        any PreferenceScanner, ContainerInfo, JarvisConfiguration
    ) {
        let configuration = configuration
        guard configuration.editingEnabled else {
            throw configuration.isProduction
                ? JarvisError(.readOnly, "editing is disabled: this agent runs the production configuration")
                : JarvisError(.readOnly, "editing is disabled in this agent's configuration")
        }
        let target = try resolve(address, checksKey: checksKey)
        guard target.0.info.isWritable else {
            throw JarvisError(.readOnly, "scanner '\(address.scanner)' is read-only")
        }
        guard target.1.isWritable else {
            throw JarvisError(.readOnly, "'\(address.container)' is read-only")
        }
        return target
    }

    func check(
        _ expected: Revision?,
        against current: ScannedEntry?,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration
    ) throws(JarvisError) {
        guard let expected else { return }
        if current == nil && expected == .absent { return }
        guard let current else {
            throw JarvisError(
                .conflict,
                "'\(container.name)' has no key '\(current?.key ?? "")' any more; it was removed since revision \(expected); list again"
            )
        }
        let actual = item(current, scanner: scanner, container: container, configuration: configuration, reveal: false)
            .revision
        guard actual == expected else {
            throw JarvisError(
                .conflict,
                "'\(current.key)' in '\(container.name)' changed since revision \(expected) (now \(actual)); nothing was written; get it again and retry"
            )
        }
    }

    func perform(_ request: WriteRequest, on scanner: any PreferenceScanner) throws(JarvisError) {
        do {
            try scanner.write(request)
        } catch {
            throw Self.wrap(error)
        }
    }
}
