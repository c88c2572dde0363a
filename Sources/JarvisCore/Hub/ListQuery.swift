/// Which items a listing wants. Every field narrows; an empty query lists everything visible.
public struct ListQuery: Sendable, Hashable {
    /// Only this scanner.
    public var scanner: String?
    /// Only containers matching this pattern.
    public var container: GlobPattern?
    /// Only keys matching this pattern.
    public var key: GlobPattern?
    /// Ask to see secret values; honoured only where the configuration allows reveal.
    public var reveal: Bool
    /// Only stored keys that the host's key catalog does not declare, in the containers
    /// where it declares any (the orphans `jarvis rm --undeclared` removes).
    public var undeclared: Bool

    /// Creates a query.
    public init(
        scanner: String? = nil, container: GlobPattern? = nil, key: GlobPattern? = nil, reveal: Bool = false,
        undeclared: Bool = false
    ) {
        self.scanner = scanner
        self.container = container
        self.key = key
        self.reveal = reveal
        self.undeclared = undeclared
    }
}

/// The answer to a listing: the items, and the containers that could not be read.
public struct ListResult: Sendable, Hashable {
    /// Items in scanner, container, key order.
    public var items: [PreferenceItem]
    /// Containers that exist but could not be read, with the reason (e.g. a JSON parse error).
    public var problems: [ContainerSummary]
    /// How many containers were left out because they belong to the operating system (see
    /// ``JarvisConfiguration/includesSystemContainers``), so a listing can say how to show them.
    public var hiddenSystemContainers = 0

    /// Creates a result.
    public init(items: [PreferenceItem], problems: [ContainerSummary]) {
        self.items = items
        self.problems = problems
    }
}

/// A scanner as clients see it.
public struct ScannerSummary: Sendable, Hashable {
    /// The scanner's id.
    public var id: String
    /// How it presents itself.
    public var info: ScannerInfo
    /// Whether clients may change its values now (editing on and the scanner writable).
    public var isWritable: Bool
    /// The value types its containers store; nil for every type.
    public var valueTypes: [PreferenceType]? = nil
}

/// A container as clients see it.
public struct ContainerSummary: Sendable, Hashable {
    /// The scanner it belongs to.
    public var scanner: String
    /// Its name.
    public var name: String
    /// Why it cannot be read, if it cannot.
    public var problem: String?
    /// Whether clients may change its values now.
    public var isWritable: Bool
}
