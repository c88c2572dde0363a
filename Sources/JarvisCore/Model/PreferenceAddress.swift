/// Where a preference lives: which scanner, which container inside it, which key.
///
/// A container is whatever groups keys for that scanner: a defaults suite, a JSON file,
/// a keyring service, a folder of secret files.
public struct PreferenceAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The scanner's id, e.g. `defaults`.
    public var scanner: String
    /// The container's name, e.g. a suite name.
    public var container: String
    /// The key inside the container.
    public var key: String

    /// Creates an address.
    public init(scanner: String, container: String, key: String) {
        self.scanner = scanner
        self.container = container
        self.key = key
    }

    /// `scanner:container key`, as the CLI prints it.
    public var description: String { "\(scanner):\(container) \(key)" }
}
