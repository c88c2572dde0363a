/// What a scanner stored for one ``WriteRequest``: the key as the next ``PreferenceScanner/read(_:)``
/// would return it. A struct, so fields can be added without breaking scanners.
public struct WriteResult: Sendable, Hashable {
    /// The key's entry after the write: the value stored by a set (in the form a read returns
    /// it, such as a number's literal kept by a JSON file); after a delete, nil, or the entry
    /// that shows through from a lower layer (a registered default).
    public var entry: ScannedEntry?
    /// What a scanner needs to put a removed key back exactly as and where it was (a JSON
    /// file: the bytes it took out and where), opaque to everyone else; nil when it needs
    /// nothing. The agent's journal keeps it with the delete, and an undo sends it back in
    /// ``WriteRequest/undoHint``.
    public var undoHint: [UInt8]? = nil
    /// The container's version before and after the write, when the scanner knows both for
    /// certain (see ``ContainerVersion/Step``); nil otherwise, the default. A watched
    /// container whose write says so is not read again whole to find what changed.
    public var step: ContainerVersion.Step? = nil

    /// Describes what a write left at its key.
    public init(entry: ScannedEntry?) {
        self.entry = entry
    }
}
