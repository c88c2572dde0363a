/// For one glob segment, the positions that accept a scalar, as a bit mask a word per 64
/// positions: what a shift-and scan (``GlobSegmentMatcher``) ands its state with.
///
/// Masks are made on demand from the `?` positions, each literal scalar's positions and the
/// sets, and kept within a byte budget. A scalar that fills more positions than the mask has
/// words is always kept (there are at most 64 such), so making a mask never costs more than
/// about twice its words plus one check per set of the segment.
struct GlobScalarMasks {
    /// Bytes of masks kept beyond the always-kept ones.
    static let budget = 1 << 20

    /// Words in a mask.
    let words: Int
    private let wild: [UInt64]
    private let literals: [Unicode.Scalar: [Int]]
    private let sets: [(position: Int, token: GlobToken)]
    private var kept: [Unicode.Scalar: [UInt64]] = [:]
    private var keptBytes = 0

    /// Indexes `segment`'s positions by what they accept.
    init(_ segment: [GlobToken]) {
        words = (segment.count + 63) / 64
        var wild = [UInt64](repeating: 0, count: words)
        var literals: [Unicode.Scalar: [Int]] = [:]
        var sets: [(position: Int, token: GlobToken)] = []
        for (position, token) in segment.enumerated() {
            switch token {
            case .literal(let scalar): literals[scalar, default: []].append(position)
            case .any, .anyRun: wild[position / 64] |= UInt64(1) << UInt64(position % 64)
            case .set: sets.append((position, token))
            }
        }
        self.wild = wild
        self.literals = literals
        self.sets = sets
    }

    /// The mask of the positions that accept `scalar`.
    mutating func mask(for scalar: Unicode.Scalar) -> [UInt64] {
        if let known = kept[scalar] { return known }
        var mask = wild
        let positions = literals[scalar] ?? []
        for position in positions {
            mask[position / 64] |= UInt64(1) << UInt64(position % 64)
        }
        for (position, token) in sets where token.accepts(scalar) {
            mask[position / 64] |= UInt64(1) << UInt64(position % 64)
        }
        if positions.count > words {
            kept[scalar] = mask
        } else if keptBytes + words * 8 <= Self.budget {
            kept[scalar] = mask
            keptBytes += words * 8
        }
        return mask
    }
}
