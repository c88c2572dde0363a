import JarvisCore

/// One level of the inspector's navigation, from the agent's scanners down to a value nested
/// at any depth.
public enum InspectorLevel: Sendable, Hashable {
    /// The scanners the agent serves.
    case scanners
    /// The containers (suites, files, services) of one scanner.
    case containers(scanner: String)
    /// The keys of one container.
    case keys(scanner: String, container: String)
    /// The members of the dictionary or array at `pointer` inside a key's value (an empty
    /// pointer: the key's whole value).
    case value(PreferenceAddress, JSONPointer)

    /// Whether its rows are keys or members, which ``InspectorSort`` orders (scanners and
    /// containers keep their own order).
    public var isSortable: Bool {
        switch self {
        case .keys, .value: true
        case .scanners, .containers: false
        }
    }

    /// The level one step up, or nil at the top.
    public var parent: InspectorLevel? {
        switch self {
        case .scanners: return nil
        case .containers: return .scanners
        case .keys(let scanner, _): return .containers(scanner: scanner)
        case .value(let address, let pointer):
            if pointer.isWhole { return .keys(scanner: address.scanner, container: address.container) }
            return .value(address, JSONPointer(tokens: Array(pointer.tokens.dropLast())))
        }
    }

    /// The names from the top to here, for a breadcrumb or a navigation title.
    public var path: [String] {
        switch self {
        case .scanners: return []
        case .containers(let scanner): return [scanner]
        case .keys(let scanner, let container): return [scanner, container]
        case .value(let address, let pointer):
            return [address.scanner, address.container, address.key] + pointer.tokens
        }
    }
}
