extension JarvisHub {
    /// The size past which a container is reported (``ContainerSize/tooLargeBytes``): tvOS
    /// stops an app whose defaults pass 1 MB, and `UserDefaults` reads a suite whole when the
    /// app starts.
    public static let largeContainerBytes = ContainerSize.tooLargeBytes

    /// What the key catalog does not expect in the containers `container` matches (every
    /// visible container when nil): stored keys it does not declare, types it does not allow,
    /// values outside its choices or range, values equal to their default, containers it
    /// names that are missing, and containers over ``largeContainerBytes``.
    ///
    /// Masked secrets are checked by name and type only: their values never leave the agent.
    /// - Throws: ``JarvisError`` `.invalidParams` when the host gave no key catalog and
    ///   nothing is to be sized either (never: sizes are always checked).
    public func check(container pattern: GlobPattern? = nil) throws(JarvisError) -> [CatalogFinding] {
        let catalog = configuration.catalog
        let listing = try list(ListQuery(container: pattern))
        var findings: [CatalogFinding] = []
        var sizes: [PreferenceAddress: ContainerSize] = [:]
        var present: Set<PreferenceAddress> = []
        for item in listing.items {
            let place = PreferenceAddress(scanner: item.address.scanner, container: item.address.container, key: "")
            present.insert(place)
            sizes[place, default: ContainerSize()].add(item)
            guard item.layer == .stored, item.catalog?.isUnset != true else { continue }
            findings += Self.check(item, catalog: catalog)
        }
        for (place, size) in sizes where size.isTooLarge {
            findings.append(
                CatalogFinding(
                    .largeContainer, scanner: place.scanner, container: place.container,
                    message:
                        "holds about \(size.text) of values, more than 1 MB: tvOS stops an app past 1 MB, and UserDefaults reads a suite whole at launch"
                ))
        }
        findings += missingContainers(catalog, present: present, pattern: pattern)
        return findings.sorted { ($0.scanner, $0.container, $0.key ?? "", $0.kind.rawValue) < ($1.scanner, $1.container, $1.key ?? "", $1.kind.rawValue) }
    }

    /// What the catalog says of one stored item.
    static func check(_ item: PreferenceItem, catalog: KeyCatalog) -> [CatalogFinding] {
        let address = item.address
        func finding(_ kind: CatalogFinding.Kind, _ message: String) -> CatalogFinding {
            CatalogFinding(kind, scanner: address.scanner, container: address.container, key: address.key, message: message)
        }
        guard let definition = catalog.definition(for: address) else {
            guard catalog.covers(scanner: address.scanner, container: address.container) else { return [] }
            return [finding(.undeclared, "stored, but the key catalog does not declare it (an orphan: jarvis rm --undeclared removes such keys)")]
        }
        guard item.type == definition.type else {
            return [finding(.wrongType, "stored as \(item.type.rawValue), but the key catalog declares \(definition.type.rawValue)")]
        }
        guard let value = item.value else { return [] }
        do {
            try definition.check(value, key: address.key)
        } catch {
            return [finding(.notAllowed, error.message)]
        }
        if let fallback = definition.defaultValue, fallback == value {
            return [finding(.equalsDefault, "stored with its default value: storing it changes nothing (jarvis reset removes it)")]
        }
        return []
    }

    /// The containers the catalog names exactly that no scanner has.
    private func missingContainers(_ catalog: KeyCatalog, present: Set<PreferenceAddress>, pattern: GlobPattern?) -> [CatalogFinding] {
        var named: [(scanner: String?, container: String)] = []
        for definition in catalog.definitions {
            guard let container = definition.container.exactText, pattern?.matches(container) ?? true else { continue }
            if !named.contains(where: { $0.scanner == definition.scanner && $0.container == container }) {
                named.append((definition.scanner, container))
            }
        }
        var findings: [CatalogFinding] = []
        for (scanner, container) in named {
            let found = present.contains { place in
                place.container == container && (scanner.map { $0 == place.scanner } ?? true)
            }
            if found { continue }
            // An empty container has no items: ask the scanners for it before calling it missing.
            let exists = (try? containers(scanner: scanner))?.contains { $0.name == container } ?? false
            if exists { continue }
            findings.append(
                CatalogFinding(
                    .missingContainer, scanner: scanner ?? "", container: container,
                    message: "the key catalog declares keys in it, but it does not exist"))
        }
        return findings
    }
}
