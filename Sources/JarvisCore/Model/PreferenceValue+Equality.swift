/// Equality as storage sees it: two values are equal when storing one in place of the other
/// changes nothing, which is also when their ``Revision``s are equal.
///
/// The only difference from the synthesized equality is reals and dates: they compare by bit pattern,
/// so a stored NaN equals itself (IEEE 754 says `NaN != NaN`, and a re-read suite would
/// report `nan → nan` as a change on every read) and `-0.0` differs from `0.0` (a file that
/// said `-0.0` and now says `0.0` did change).
extension PreferenceValue {
    /// Whether storing `lhs` in place of `rhs` would change nothing.
    public static func == (lhs: PreferenceValue, rhs: PreferenceValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.boolean(let a), .boolean(let b)): a == b
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a == b
        case (.bigNumber(let a), .bigNumber(let b)): a == b
        default: false
        }
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(0 as UInt8); hasher.combine(value)
        case .integer(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .real(let value): hasher.combine(2 as UInt8); hasher.combine(value.bitPattern)
        case .boolean(let value): hasher.combine(3 as UInt8); hasher.combine(value)
        case .date(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let value): hasher.combine(5 as UInt8); hasher.combine(value)
        case .array(let value): hasher.combine(6 as UInt8); hasher.combine(value)
        case .dictionary(let value): hasher.combine(7 as UInt8); hasher.combine(value)
        case .bigNumber(let value): hasher.combine(8 as UInt8); hasher.combine(value)
        }
    }
}
