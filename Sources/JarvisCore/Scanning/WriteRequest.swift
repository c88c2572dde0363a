/// One change the hub asks a scanner to store. A struct, so fields can be added without
/// breaking scanners.
public struct WriteRequest: Sendable, Hashable {
    /// What to do with the key.
    public enum Change: Sendable, Hashable {
        /// Store this value, creating the key if needed.
        case set(PreferenceValue)
        /// Remove the key.
        case delete
    }

    /// The container to change.
    public var container: String
    /// The key to change.
    public var key: String
    /// The change.
    public var change: Change
    /// How the value was encoded when it was read (for example JSON inside `Data`); the
    /// scanner stores it back the same way.
    public var encoding: ValueEncoding?
    /// For a `set` that undoes a delete: the ``WriteResult/undoHint`` that delete returned, so a
    /// scanner that can puts the key back exactly as and where it was. A scanner may ignore it.
    public var undoHint: [UInt8]? = nil

    /// Creates a request.
    public init(container: String, key: String, change: Change, encoding: ValueEncoding? = nil) {
        self.container = container
        self.key = key
        self.change = change
        self.encoding = encoding
    }
}
