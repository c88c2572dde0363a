import JarvisCore

/// A quick filter beside the search field: keys that changed a moment ago, secrets, unset
/// catalog keys, keys the catalog does not declare, or keys of one type.
public enum InspectorChip: Sendable, Hashable, CustomStringConvertible {
    /// Changed in the agent a moment ago.
    case changed
    /// Changed in the agent after its change number `serial` (``InspectorState/changeSerial``
    /// when the face opened): what changed since a page opened. Its ``id`` is `changed`, as
    /// the face offers it in the place of ``changed``.
    case changedSince(Int)
    /// Secrets, masked or revealed.
    case secrets
    /// Declared by the key catalog with nothing stored.
    case unset
    /// Stored without the key catalog declaring it.
    case undeclared
    /// Of one type.
    case type(PreferenceType)

    /// Every chip a face offers, in order.
    public static var all: [InspectorChip] {
        [.changed, .secrets, .unset, .undeclared] + PreferenceType.allCases.map(InspectorChip.type)
    }

    /// A stable name for the chip (`changed`, `type:string`), as a face sends it back.
    public var id: String {
        switch self {
        case .changed, .changedSince: "changed"
        case .secrets: "secrets"
        case .unset: "unset"
        case .undeclared: "undeclared"
        case .type(let type): "type:" + type.rawValue
        }
    }

    /// The chip a name stands for; nil for an unknown name.
    public init?(id: String) {
        guard let chip = Self.all.first(where: { $0.id == id }) else { return nil }
        self = chip
    }

    /// What the chip says.
    public var description: String {
        switch self {
        case .changed: "Changed"
        case .changedSince: "Changed since opened"
        case .secrets: "Secrets"
        case .unset: "Unset"
        case .undeclared: "Undeclared"
        case .type(let type): type.rawValue.prefix(1).uppercased() + type.rawValue.dropFirst()
        }
    }

    /// Whether a key row (with its item, in `state`) belongs under the chip.
    public func matches(_ row: InspectorRow, _ item: PreferenceItem?, in state: InspectorState) -> Bool {
        switch self {
        case .changed: row.has(.changed)
        case .changedSince(let serial): row.target.address.map { state.changed($0, since: serial) } ?? false
        case .secrets: row.has(.masked) || row.has(.revealed)
        case .unset: row.has(.unset)
        case .undeclared: item != nil && item?.catalog == nil
        case .type(let type): row.type == type
        }
    }
}
