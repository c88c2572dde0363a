/// The kind of a stored value: the eight kinds a property list can hold.
///
/// The raw values are the `type` strings of the wire protocol, so they never change.
public enum PreferenceType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case string
    case integer
    case real
    case boolean
    case date
    case data
    case array
    case dictionary

    /// The wire name, e.g. `integer`.
    public var description: String { rawValue }

    /// Whether values of this type contain other values, and so can be reached into with a JSON Pointer.
    public var isContainer: Bool { self == .array || self == .dictionary }
}
