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
        let (rules, container, info, lookup) = try resolve(address)
        let scanner = rules.scanner
        let configuration = rules.configuration
        if reveal && info.isSecret && !configuration.revealEnabled {
            throw Self.revealRefused(configuration)
        }
        let asked = PreferenceAddress(scanner: address.scanner, container: lookup.container, key: lookup.key)
        guard let entry = try read(asked, scanner: scanner), lookup.isShown else {
            throw .noKey(address.key, in: address.container)
        }
        let target = try pointer.value(in: entry.value, key: address.key)
        let found = targetItem(
            target, pointer: pointer, entry: entry, scanner: scanner, container: container,
            configuration: configuration, reveal: reveal)
        hear(found, at: address, stored: asked)
        return found
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
        return try Self.answer(
            write(address, .setInside(pointer, value), expectedRevision: expectedRevision).item, for: address)
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
        return try Self.answer(
            write(address, .deleteInside(pointer), expectedRevision: expectedRevision).item, for: address)
    }

    func targetItem(
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
