/// How a scanner presents itself to clients, and what the hub must do with its values.
public struct ScannerInfo: Sendable, Hashable {
    /// A name for people, e.g. `Defaults suites`.
    public var displayName: String
    /// Whether values are secrets: the hub masks them unless reveal is allowed and asked for.
    public var isSecret: Bool
    /// Whether the scanner stores writes at all; false (the default) makes every item
    /// read-only. A scanner that implements ``PreferenceScanner/write(_:)`` says so here:
    /// `ScannerInfo(displayName: "Flags", isWritable: true)`.
    public var isWritable: Bool
    /// Nil when the scanner works; otherwise why it cannot (shown by `jarvis ls` and `scanners`).
    public var unavailableReason: String?

    /// Describes a scanner; read-only unless `isWritable` says otherwise.
    public init(displayName: String, isSecret: Bool = false, isWritable: Bool = false, unavailableReason: String? = nil)
    {
        self.displayName = displayName
        self.isSecret = isSecret
        self.isWritable = isWritable
        self.unavailableReason = unavailableReason
    }
}
