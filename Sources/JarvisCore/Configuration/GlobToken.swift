/// One parsed element of a ``GlobPattern``: a scalar, `?`, `*`, or a bracket set.
enum GlobToken: Sendable, Hashable {
    /// Exactly this scalar.
    case literal(Unicode.Scalar)
    /// `?`: any one scalar.
    case any
    /// `*`: any run of scalars, the empty one included.
    case anyRun
    /// `[…]` or `[!…]`: one scalar in (or, negated, outside) the ranges.
    case set([ClosedRange<Unicode.Scalar>], negated: Bool)

    /// Whether this one-scalar token accepts `scalar` (never asked of `anyRun`).
    func accepts(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .literal(let literal): literal == scalar
        case .any, .anyRun: true
        case .set(let ranges, let negated): ranges.contains(where: { $0.contains(scalar) }) != negated
        }
    }
}
