/// One container of a scanner: a suite, a file, a keyring service, a folder.
public struct ContainerInfo: Sendable, Hashable {
    /// The container's name, unique within its scanner.
    public var name: String
    /// Why the container cannot be read, e.g. a JSON file's parse error; nil when it can.
    public var problem: String?
    /// Whether its values can be changed.
    public var isWritable: Bool
    /// False for a container that does not exist yet but that a write would create; only
    /// ``PreferenceScanner/container(named:)`` answers such a container.
    public var exists: Bool

    /// Describes a container.
    public init(_ name: String, problem: String? = nil, isWritable: Bool = true, exists: Bool = true) {
        self.name = name
        self.problem = problem
        self.isWritable = isWritable
        self.exists = exists
    }
}
