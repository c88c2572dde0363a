/// Nested reads and edits: a JSON Pointer inside a key's value.
///
/// The hub reads the key's whole value, reads or edits one place inside it and, for edits,
/// writes the whole value back, so every sibling keeps its type (dates stay dates, data stays
/// data) and a key stored as Codable JSON in `Data` keeps its encoding.
extension JarvisHub {
    /// One place inside a key's value.
    /// - Returns: an item whose `type` and `value` are the target's, `pointer` is set, and
    ///   `revision` is the whole value's (send it back to guard a pointer write).
    /// - Throws: ``JarvisError`` `.notFound` for a missing key or path, `.typeMismatch` when the
    ///   path runs through a scalar, and as ``get(_:reveal:)``.
    public func get(_ address: PreferenceAddress, pointer: JSONPointer, reveal: Bool = false) throws(JarvisError)
        -> PreferenceItem
    {
        guard !pointer.isWhole else { return try get(address, reveal: reveal) }
        let (scanner, container, configuration) = try resolve(address, listsContainers: false)
        if reveal && scanner.info.isSecret && !configuration.revealEnabled {
            throw Self.revealRefused(configuration)
        }
        guard let entry = try read(address, scanner: scanner) else {
            throw .noKey(address.key, in: address.container)
        }
        let target = try pointer.value(in: entry.value)
        return targetItem(
            target, pointer: pointer, entry: entry, scanner: scanner, container: container,
            configuration: configuration, reveal: reveal)
    }

    /// Stores a value at one place inside a key's value, keeping everything around it.
    /// - Parameters:
    ///   - pointer: where, relative to the key's value (`/tags/0`, `/server/port`, `/tags/-`).
    ///   - expectedRevision: the whole value's revision; on mismatch `.conflict`, nothing written.
    /// - Returns: the target as stored afterwards (see ``get(_:pointer:reveal:)``).
    /// - Throws: ``JarvisError`` `.notFound` when the key or a parent is missing,
    ///   `.typeMismatch` when a parent is a scalar or the catalog refuses the new whole value.
    @discardableResult
    public func set(
        _ address: PreferenceAddress,
        pointer: JSONPointer,
        to value: PreferenceValue,
        expectedRevision: Revision? = nil
    ) throws(JarvisError) -> PreferenceItem {
        guard !pointer.isWhole else { return try set(address, to: value, expectedRevision: expectedRevision) }
        return try editInside(address, pointer: pointer, expectedRevision: expectedRevision) {
            (whole) throws(JarvisError) in
            try pointer.setting(value, in: whole)
        } answer: { stored, before throws(JarvisError) in
            // `-` named "after the last" before the append; answer with the index it became.
            let resolved = try pointer.resolvingAppend(in: before)
            return (try resolved.value(in: stored), resolved)
        }
    }

    /// Removes one place inside a key's value (a dictionary key or an array element).
    /// - Returns: the removed target as it was.
    /// - Throws: ``JarvisError`` as ``set(_:pointer:to:expectedRevision:)``.
    @discardableResult
    public func delete(
        _ address: PreferenceAddress,
        pointer: JSONPointer,
        expectedRevision: Revision? = nil
    ) throws(JarvisError) -> PreferenceItem {
        guard !pointer.isWhole else { return try delete(address, expectedRevision: expectedRevision) }
        return try editInside(address, pointer: pointer, expectedRevision: expectedRevision) {
            (whole) throws(JarvisError) in
            try pointer.removing(in: whole)
        } answer: { _, before throws(JarvisError) in
            (try pointer.value(in: before), pointer)
        }
    }

    private func editInside(
        _ address: PreferenceAddress,
        pointer: JSONPointer,
        expectedRevision: Revision?,
        edit: (PreferenceValue) throws(JarvisError) -> PreferenceValue,
        answer: (_ stored: PreferenceValue, _ before: PreferenceValue) throws(JarvisError) -> (
            PreferenceValue, JSONPointer
        )
    ) throws(JarvisError) -> PreferenceItem {
        let (scanner, container, configuration) = try writableTarget(address)
        return try serializedWrite { () throws(JarvisError) -> PreferenceItem in
            guard let current = try read(address, scanner: scanner) else {
                throw JarvisError(
                    .notFound,
                    "no key '\(address.key)' in '\(address.container)' to edit inside; set the whole key first")
            }
            try check(
                expectedRevision, against: current, scanner: scanner, container: container, configuration: configuration
            )
            guard current.isWritable else {
                throw JarvisError(.readOnly, "'\(address.key)' in '\(address.container)' is read-only")
            }
            let edited = try edit(current.value)
            try configuration.catalog.check(edited, at: address)
            let encoding = current.layer == .stored ? current.encoding : nil
            try perform(
                WriteRequest(container: address.container, key: address.key, change: .set(edited), encoding: encoding),
                on: scanner)
            guard let stored = try read(address, scanner: scanner) else {
                throw JarvisError(
                    .storage, "'\(address.key)' was written but cannot be read back from '\(address.container)'")
            }
            let (target, place) = try answer(stored.value, current.value)
            return targetItem(
                target, pointer: place, entry: stored, scanner: scanner, container: container,
                configuration: configuration, reveal: false)
        }
    }

    private func targetItem(
        _ target: PreferenceValue,
        pointer: JSONPointer,
        entry: ScannedEntry,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration,
        reveal: Bool
    ) -> PreferenceItem {
        let whole = item(entry, scanner: scanner, container: container, configuration: configuration, reveal: reveal)
        var inner = entry
        inner.value = target
        var result = item(inner, scanner: scanner, container: container, configuration: configuration, reveal: reveal)
        result.revision = whole.revision
        result.pointer = pointer
        result.catalog = nil
        return result
    }
}
