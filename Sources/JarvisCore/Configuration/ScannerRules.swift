/// What one scanner may show: include and exclude patterns for its containers and keys.
///
/// An empty include list means everything; an exclude always wins over an include. A hidden
/// container or key never leaves the process: not in listings, counts, values or errors.
public struct ScannerRules: Sendable, Hashable {
    /// Whether the scanner is used at all.
    public var isEnabled: Bool
    /// Containers to show; empty shows all.
    public var includeContainers: [GlobPattern]
    /// Containers to hide.
    public var excludeContainers: [GlobPattern]
    /// Keys to show; empty shows all.
    public var includeKeys: [GlobPattern]
    /// Keys to hide.
    public var excludeKeys: [GlobPattern]

    /// Creates rules; the defaults show everything.
    public init(
        isEnabled: Bool = true,
        includeContainers: [GlobPattern] = [],
        excludeContainers: [GlobPattern] = [],
        includeKeys: [GlobPattern] = [],
        excludeKeys: [GlobPattern] = []
    ) {
        self.isEnabled = isEnabled
        self.includeContainers = includeContainers
        self.excludeContainers = excludeContainers
        self.includeKeys = includeKeys
        self.excludeKeys = excludeKeys
    }

    /// Rules that show nothing of the scanner.
    public static let disabled = ScannerRules(isEnabled: false)

    /// Whether a container may be shown.
    public func shows(container: String) -> Bool {
        isEnabled && Self.passes(container, include: includeContainers, exclude: excludeContainers)
    }

    /// Whether a key may be shown (its container checked separately).
    public func shows(key: String) -> Bool {
        Self.passes(key, include: includeKeys, exclude: excludeKeys)
    }

    /// Both sets of rules at once: a name must pass each.
    public func combined(with other: ScannerRules) -> ScannerRules {
        // Includes cannot simply be concatenated (that would widen them), so a combined
        // include list is kept only when one side has none.
        ScannerRules(
            isEnabled: isEnabled && other.isEnabled,
            includeContainers: includeContainers.isEmpty ? other.includeContainers : includeContainers,
            excludeContainers: excludeContainers + other.excludeContainers,
            includeKeys: includeKeys.isEmpty ? other.includeKeys : includeKeys,
            excludeKeys: excludeKeys + other.excludeKeys
        )
    }

    private static func passes(_ name: String, include: [GlobPattern], exclude: [GlobPattern]) -> Bool {
        if !include.isEmpty && !include.contains(where: { $0.matches(name) }) { return false }
        return !exclude.contains(where: { $0.matches(name) })
    }
}
