/// What the host's key catalog says about an item: shown beside the value in listings.
public struct CatalogNote: Sendable, Hashable {
    /// What applies while nothing is stored.
    public var defaultValue: PreferenceValue?
    /// What the key means.
    public var description: String?
    /// The only values accepted, if the key is an enumeration.
    public var allowedValues: [PreferenceValue]?
    /// The accepted numeric range.
    public var range: ClosedRange<Double>?
    /// True when the key is declared but nothing is stored: the item has no value.
    public var isUnset: Bool

    /// Creates a note.
    public init(
        defaultValue: PreferenceValue? = nil,
        description: String? = nil,
        allowedValues: [PreferenceValue]? = nil,
        range: ClosedRange<Double>? = nil,
        isUnset: Bool = false
    ) {
        self.defaultValue = defaultValue
        self.description = description
        self.allowedValues = allowedValues
        self.range = range
        self.isUnset = isUnset
    }
}
