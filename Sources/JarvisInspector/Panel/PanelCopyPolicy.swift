/// How long, and where, a copied text may stay on the pasteboard.
///
/// A revealed secret copied on an iPhone would otherwise reach every device of the same
/// Apple Account through Universal Clipboard and stay on the pasteboard until something else
/// replaces it: it stays on this device and expires after ``secretLifetime``. Anything else
/// (a key, a pointer, a plain value) is copied as usual.
public struct PanelCopyPolicy: Sendable, Hashable {
    /// Whether the text stays on this device (no Universal Clipboard / Handoff).
    public var isLocalOnly: Bool
    /// How long it stays on the pasteboard, in seconds; nil for as long as the system keeps it.
    public var lifetime: Double?

    /// How long a copied secret stays on the pasteboard: long enough to paste it elsewhere.
    public static let secretLifetime: Double = 60

    /// The policy for copying `part` of `row`.
    public init(copying part: InspectorCopy.Part, of row: InspectorRow) {
        let secret = row.has(.revealed) || row.has(.masked)
        if secret && part == .value {
            isLocalOnly = true
            lifetime = Self.secretLifetime
        } else {
            isLocalOnly = false
            lifetime = nil
        }
    }
}
