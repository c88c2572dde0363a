/// One thing `jarvis check` found that the host's key catalog does not expect: what a UI test
/// or a CI job fails on after a run.
public struct CatalogFinding: Sendable, Hashable {
    /// What kind of finding; the list may grow, so `switch` with a `default`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name on the wire.
        public var rawValue: String
        /// A kind by its wire name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire name.
        public var description: String { rawValue }

        /// A stored key the catalog does not declare in a container where it declares keys.
        public static let undeclared = Kind(rawValue: "undeclared")
        /// A stored value of another type than the catalog declares.
        public static let wrongType = Kind(rawValue: "wrongType")
        /// A stored value outside the catalog's choices or range.
        public static let notAllowed = Kind(rawValue: "notAllowed")
        /// A stored value equal to the catalog's default: storing it changes nothing.
        public static let equalsDefault = Kind(rawValue: "equalsDefault")
        /// A container the catalog names that does not exist.
        public static let missingContainer = Kind(rawValue: "missingContainer")
        /// A container whose values take more than 1 MB (tvOS stops an app past 1 MB).
        public static let largeContainer = Kind(rawValue: "largeContainer")
    }

    /// The kind.
    public var kind: Kind
    /// The scanner.
    public var scanner: String
    /// The container.
    public var container: String
    /// The key, for a key's finding; nil for a container's.
    public var key: String?
    /// What is wrong, in a sentence a person can act on.
    public var message: String

    /// A finding.
    public init(_ kind: Kind, scanner: String, container: String, key: String? = nil, message: String) {
        self.kind = kind
        self.scanner = scanner
        self.container = container
        self.key = key
        self.message = message
    }
}
