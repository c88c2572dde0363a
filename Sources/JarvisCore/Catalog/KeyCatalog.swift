/// The keys a host declares, handed to the hub through ``JarvisConfiguration/catalog``.
///
/// The first definition that matches an address applies, so put exact names before the
/// patterns that would also cover them.
///
/// ```swift
/// var configuration = JarvisConfiguration.debug
/// configuration.catalog = [
///     KeyDefinition("launch_count", in: "com.example.app", type: .integer, default: 0, range: 0...10_000),
/// ]
/// ```
public struct KeyCatalog: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The definitions, in the order they are tried.
    public var definitions: [KeyDefinition]

    /// A catalog of these definitions.
    public init(_ definitions: [KeyDefinition] = []) {
        self.definitions = definitions
    }

    /// A catalog from a literal list.
    public init(arrayLiteral elements: KeyDefinition...) {
        definitions = elements
    }

    /// Whether the catalog declares nothing.
    public var isEmpty: Bool { definitions.isEmpty }

    /// The definition that applies to an address, if any.
    public func definition(for address: PreferenceAddress) -> KeyDefinition? {
        definitions.first { $0.matches(address) }
    }

    /// Checks a value about to be stored at `address`.
    /// - Throws: ``JarvisError`` `.typeMismatch` when a definition applies and refuses it.
    public func check(_ value: PreferenceValue, at address: PreferenceAddress) throws(JarvisError) {
        try definition(for: address)?.check(value, key: address.key)
    }

    /// Whether any definition applies in this container, so that a key no definition matches
    /// there is *undeclared* (an orphan) rather than merely uncatalogued.
    public func covers(scanner: String, container: String) -> Bool {
        definitions.contains { $0.applies(in: scanner) && $0.container.matches(container) }
    }

    /// Whether a definition applies to the address.
    public func declares(_ address: PreferenceAddress) -> Bool {
        definition(for: address) != nil
    }

    /// The keys declared by exact name in one container, with their definitions.
    func exactKeys(scanner: String, container: String) -> [(String, KeyDefinition)] {
        var seen: Set<String> = []
        var result: [(String, KeyDefinition)] = []
        for definition in definitions where definition.applies(in: scanner) && definition.container.matches(container) {
            guard case .exact(let key) = definition.name, seen.insert(key).inserted else { continue }
            // A key an earlier pattern already covers follows that pattern, as `definition(for:)` does.
            let address = PreferenceAddress(scanner: scanner, container: container, key: key)
            if self.definition(for: address) == definition { result.append((key, definition)) }
        }
        return result
    }

    /// Checks that every default fits its own definition.
    /// - Throws: ``JarvisError`` `.invalidParams` naming the first definition whose default it refuses.
    public func validate() throws(JarvisError) {
        for definition in definitions {
            guard let value = definition.defaultValue else { continue }
            let label: String
            switch definition.name {
            case .exact(let key): label = key
            case .pattern(let pattern): label = pattern.description
            }
            do {
                try definition.check(value, key: label)
            } catch {
                throw JarvisError(
                    .invalidParams,
                    "the key catalog's default for '\(label)' does not fit its definition: \(error.message)")
            }
        }
    }
}

extension KeyDefinition {
    /// Whether the definition applies to containers of scanner `id`.
    func applies(in id: String) -> Bool {
        scanner.map { $0 == id } ?? true
    }
}
