/// The panel's search over one segment, narrowed keystroke by keystroke.
///
/// ``InspectorState/sections(scanner:filter:now:)`` builds and tests every row of the segment
/// on each call: at 100,000 keys that is far more than a frame. A face makes one search per
/// change and segment (off the main thread): the rows are built once, their texts folded once
/// (``InspectorFilterIndex``), and each keystroke tests only the rows the previous, shorter
/// search kept. The answer is always what `sections(scanner:filter:)` gives: a section keeps
/// the rows that match, or all of its rows when its container's name matches.
public struct PanelSearch: Sendable {
    /// The segment's sections with every row (the empty search).
    public let all: [InspectorSection]
    private var index: InspectorFilterIndex
    /// Where each section's rows start in the index's positions.
    private let starts: [Int]
    /// Whether a section's name matching keeps all its rows (the sectioned search does; a
    /// level's rows, as ``InspectorState/rows(_:filter:previewLimit:now:)``, do not).
    private let byContainerName: Bool

    /// A search over `scanner`'s rows (all scanners when nil) as `state` has them; it builds
    /// every row, so make it off the main thread.
    public init(_ state: InspectorState, scanner: String?, now: ContinuousClock.Instant = .now) {
        self.init(all: state.sections(scanner: scanner, now: now), byContainerName: true)
    }

    /// A search over one level's rows (a container's keys, a value's members), answering as
    /// ``InspectorState/rows(_:filter:previewLimit:now:)`` does, through ``rows(_:)``.
    public init(_ state: InspectorState, level: InspectorLevel, now: ContinuousClock.Instant = .now) {
        let rows = state.rows(level, now: now)
        self.init(all: [InspectorSection(scanner: "", container: "", problem: nil, rows: rows)], byContainerName: false)
    }

    private init(all: [InspectorSection], byContainerName: Bool) {
        self.all = all
        self.byContainerName = byContainerName
        var starts: [Int] = []
        var texts: [InspectorFilter.Folded] = []
        for section in all {
            starts.append(texts.count)
            texts.append(contentsOf: section.rows.map(InspectorFilter.Folded.init))
        }
        self.starts = starts
        index = InspectorFilterIndex(texts)
    }

    /// The sections `filter` keeps, in order.
    public mutating func sections(_ filter: InspectorFilter) -> [InspectorSection] {
        guard let kept = index.kept(by: filter) else { return all }
        var result: [InspectorSection] = []
        var cursor = 0
        for (number, section) in all.enumerated() {
            let start = starts[number]
            let end = start + section.rows.count
            var rows: [InspectorRow] = []
            while cursor < kept.count, kept[cursor] < end {
                rows.append(section.rows[kept[cursor] - start])
                cursor += 1
            }
            if byContainerName, filter.matches(section.container) { rows = section.rows }
            guard !rows.isEmpty else { continue }
            var narrowed = section
            narrowed.rows = rows
            result.append(narrowed)
        }
        return result
    }

    /// The rows `filter` keeps, in order, of a search made over a level.
    public mutating func rows(_ filter: InspectorFilter) -> [InspectorRow] {
        sections(filter).first?.rows ?? []
    }
}
