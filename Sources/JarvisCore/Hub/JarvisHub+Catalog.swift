/// The host's key catalog in listings and lookups, and `reset`, which brings a default back.
extension JarvisHub {
    /// Removes the stored value of a key so its default applies again.
    ///
    /// Unlike ``delete(_:expectedRevision:)``, a key with nothing stored is not an error:
    /// resetting twice is the same as resetting once.
    /// - Returns: the item as it was (nil when nothing was stored) and as it is now: the
    ///   registered default, the catalog's unset item, or nil when neither exists.
    /// - Throws: ``JarvisError`` as for delete, apart from `.notFound` for an absent value.
    @discardableResult
    public func reset(_ address: PreferenceAddress, expectedRevision: Revision? = nil) throws(JarvisError)
        -> ResetResult
    {
        let outcome = try write(address, .reset, expectedRevision: expectedRevision)
        return ResetResult(removed: outcome.changes.first?.before, current: outcome.item)
    }

    /// The catalog's note for an address; a secret scanner's default is withheld while masked.
    func catalogNote(for address: PreferenceAddress, configuration: JarvisConfiguration, secret: Bool) -> CatalogNote? {
        guard let definition = configuration.catalog.definition(for: address) else { return nil }
        var note = definition.note(isUnset: false)
        if secret {
            note.defaultValue = nil
            note.allowedValues = nil
        }
        return note
    }

    /// The item for a key the catalog declares by name but nothing stores, when visible.
    func unsetItem(
        _ address: PreferenceAddress,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration
    ) -> PreferenceItem? {
        guard let definition = configuration.catalog.definition(for: address), case .exact = definition.name,
            configuration.rules(for: address.scanner).shows(key: address.key)
        else { return nil }
        return unsetItem(
            address, definition: definition, scanner: scanner, container: container, configuration: configuration)
    }

    /// Unset items for the catalogued keys of one container that nothing stores.
    func unsetItems(
        present: Set<String>,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration,
        rules: ScannerRules,
        query: ListQuery
    ) -> [PreferenceItem] {
        guard !configuration.catalog.isEmpty else { return [] }
        return configuration.catalog.exactKeys(scanner: scanner.id, container: container.name).compactMap {
            key, definition in
            guard !present.contains(key), rules.shows(key: key), query.key?.matches(key) ?? true else { return nil }
            let address = PreferenceAddress(scanner: scanner.id, container: container.name, key: key)
            return unsetItem(
                address, definition: definition, scanner: scanner, container: container, configuration: configuration)
        }
    }

    private func unsetItem(
        _ address: PreferenceAddress,
        definition: KeyDefinition,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration
    ) -> PreferenceItem {
        let info = scanner.info
        var result = PreferenceItem(
            address: address, type: definition.type, value: nil, revision: .absent,
            isWritable: configuration.editingEnabled && info.isWritable && container.isWritable)
        var note = definition.note(isUnset: true)
        if info.isSecret {
            note.defaultValue = nil
            note.allowedValues = nil
        }
        result.catalog = note
        return result
    }
}

/// What ``JarvisHub/reset(_:expectedRevision:)`` did.
public struct ResetResult: Sendable, Hashable {
    /// The stored item that was removed; nil when nothing was stored.
    public var removed: PreferenceItem?
    /// The item now: a registered default or an unset catalogued key; nil when neither exists.
    public var current: PreferenceItem?

    /// Creates a result.
    public init(removed: PreferenceItem?, current: PreferenceItem?) {
        self.removed = removed
        self.current = current
    }
}
