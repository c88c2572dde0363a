/// What the hub asks a scanner to read. A struct, so fields can be added without breaking scanners.
public struct ReadRequest: Sendable, Hashable {
    /// The container to read.
    public var container: String
    /// Only these keys, or every key when nil. A scanner may return more; the hub filters.
    public var keys: [String]?

    /// Creates a request.
    public init(container: String, keys: [String]? = nil) {
        self.container = container
        self.keys = keys
    }
}
