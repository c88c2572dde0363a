/// One key and its raw value as a scanner found it, before the hub filters, masks and
/// stamps it with a revision.
public struct ScannedEntry: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value as Jarvis shows it.
    public var value: PreferenceValue
    /// Where the value comes from: stored, or only a registered default.
    public var layer: ValueLayer
    /// Set when the stored bytes are an encoding of the shown value (Codable JSON in `Data`).
    public var encoding: ValueEncoding?
    /// Whether this entry can be changed.
    public var isWritable: Bool
    /// False when `value` only stands in for what is stored (a JSON `null`, a number beyond
    /// what a ``PreferenceValue`` holds): the hub makes such an entry read-only and marks its
    /// item a placeholder, so neither `set` nor `import` ever stores the stand-in as a value.
    public var isExact: Bool

    /// Describes an entry.
    public init(
        key: String,
        value: PreferenceValue,
        layer: ValueLayer = .stored,
        encoding: ValueEncoding? = nil,
        isWritable: Bool = true,
        isExact: Bool = true
    ) {
        self.key = key
        self.value = value
        self.layer = layer
        self.encoding = encoding
        self.isWritable = isWritable
        self.isExact = isExact
    }
}

/// Where a value comes from, so nobody mistakes a default for a stored value.
public enum ValueLayer: String, Sendable, Hashable, Codable {
    /// Stored in the container.
    case stored
    /// Nothing is stored: this is the default registered in code.
    case registered
}

/// How a shown value is encoded in storage, when it is not stored as itself.
public enum ValueEncoding: String, Sendable, Hashable, Codable {
    /// `Data` holding JSON (what `JSONEncoder` writes for a Codable struct).
    case json
    /// `Data` holding a property list (what `PropertyListEncoder` writes).
    case propertyList
}
