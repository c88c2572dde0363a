/// A list's rows as a filter sees them (their texts lowercased once), narrowed again on every
/// keystroke of a search field.
///
/// Typing one more character tests only the rows the last filter kept, and deleting it goes
/// back to what the shorter filter kept before: the answer is always what a fresh
/// ``InspectorFilter/matches(folded:)`` over every row gives. The texts are kept apart from
/// the rows a face draws, so a keystroke over 30,000 rows touches two strings per row and
/// copies no row.
public struct InspectorFilterIndex: Sendable {
    private let texts: [InspectorFilter.Folded]
    /// The filters typed since the last one that did not narrow its predecessor, each with
    /// the positions it kept (nil: every row). Each entry narrows the one before it.
    private var trail: [(filter: InspectorFilter, kept: [Int]?)] = []

    /// The most filters ``trail`` remembers; older ones are dropped (a fresh filter then
    /// tests every row again, with the same answer). Each holds up to a position per row:
    /// 16 over 100,000 rows is at most 13 MB.
    static let trailLimit = 16

    /// An index over rows' folded texts, in the rows' order.
    public init(_ texts: [InspectorFilter.Folded]) { self.texts = texts }

    /// An index over `rows`.
    public init(rows: [InspectorRow]) { self.init(rows.map(InspectorFilter.Folded.init)) }

    /// How many rows the index holds.
    public var count: Int { texts.count }

    /// The positions of the rows `filter` keeps, in order; nil when it keeps every row (an
    /// empty filter).
    public mutating func kept(by filter: InspectorFilter) -> [Int]? {
        guard !filter.isEmpty else {
            trail.removeAll()
            return nil
        }
        // Back to the last filter this one narrows (deleting characters walks back).
        while let last = trail.last, !(last.filter.text == filter.text || filter.narrows(last.filter)) {
            trail.removeLast()
        }
        if let last = trail.last, last.filter.text == filter.text { return last.kept }
        let candidates = trail.last?.kept
        let kept = (candidates ?? Array(texts.indices)).filter { filter.matches(folded: texts[$0]) }
        if trail.count == Self.trailLimit { trail.removeFirst() }
        trail.append((filter, kept))
        return kept
    }
}
