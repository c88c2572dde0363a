/// What a scanner stored for one ``WriteRequest``: the key as the next ``PreferenceScanner/read(_:)``
/// would return it. A struct, so fields can be added without breaking scanners.
public struct WriteResult: Sendable, Hashable {
    /// The key's entry after the write: the value stored by a set (in the form a read returns
    /// it, such as a number's literal kept by a JSON file); after a delete, nil, or the entry
    /// that shows through from a lower layer (a registered default).
    public var entry: ScannedEntry?

    /// Describes what a write left at its key.
    public init(entry: ScannedEntry?) {
        self.entry = entry
    }
}
