/// A table's rows for one scope and set of chips, kept whole, and the part a filter shows,
/// found again on every keystroke through an ``InspectorFilterIndex``.
///
/// A face that redraws on each keystroke (the browser inspector) replaces the rows only when
/// the model, the scope or the chips change (``replace(with:)``); a keystroke then tests the
/// rows the last filter kept instead of building every row again. The rows a filter shows are
/// always those ``InspectorState/tableRows(scanner:container:filter:chips:previewLimit:now:)``
/// gives for the same filter.
public struct InspectorFilteredRows: Sendable {
    /// Every row, unfiltered, in table order.
    public private(set) var all = InspectorRowChunks()
    /// Built at the first non-empty filter after the rows were replaced.
    private var index: InspectorFilterIndex?

    /// No rows yet.
    public init() {}

    /// Replaces the rows (the model, the scope or the chips changed).
    public mutating func replace(with rows: InspectorRowChunks) {
        all = rows
        index = nil
    }

    /// The rows `filter` shows, in table order.
    public mutating func rows(_ filter: InspectorFilter) -> InspectorRowChunks {
        guard !filter.isEmpty else { return all }
        var index = self.index ?? InspectorFilterIndex(rows: Array(all))
        let kept = index.kept(by: filter)
        self.index = index
        guard let kept else { return all }
        let all = all
        return InspectorRowChunks(kept.lazy.map { all[$0] })
    }
}
