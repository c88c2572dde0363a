import JarvisCore

extension InspectorState {
    /// The key rows of a flat table: every key of the agent, of one scanner or of one
    /// container, narrowed by the search text and by every chosen chip (all must match),
    /// sorted naturally by key (`key_2` before `key_10`), then by container.
    /// - Parameters:
    ///   - scanner: nil for every scanner.
    ///   - container: nil for every container of the scanner.
    public func tableRows(
        scanner: String?, container: String?, filter: InspectorFilter = InspectorFilter(),
        chips: Set<InspectorChip> = [], previewLimit: Int = 120, now: ContinuousClock.Instant = .now
    ) -> [InspectorRow] {
        var rows: [InspectorRow] = []
        for address in orderedAddresses
        where (scanner == nil || address.scanner == scanner) && (container == nil || address.container == container) {
            guard let row = row(for: address, previewLimit: previewLimit, now: now) else { continue }
            guard filter.isEmpty || filter.matches(row) else { continue }
            guard chips.allSatisfy({ $0.matches(row, items[address], in: self) }) else { continue }
            rows.append(row)
        }
        return rows
    }
}
