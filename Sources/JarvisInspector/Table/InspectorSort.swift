/// How a table of keys is ordered: by one column, up or down. Every face sorts through it
/// (``InspectorState/sorted(_:by:)``), so the browser inspector and the terminal inspector
/// show the same order.
public struct InspectorSort: Sendable, Hashable {
    /// A column the table can be sorted by.
    public enum Column: String, Sendable, Hashable, CaseIterable {
        /// The key's name in natural order (`key2` before `key10`).
        case key
        /// The stored type's name, then the key.
        case type
        /// The value: numbers as numbers, dates in time, text in natural order; kinds apart.
        case value
    }

    /// The column the rows are ordered by.
    public var column: Column
    /// Whether the order is reversed (Z to A, largest first).
    public var descending: Bool

    /// By key, A to Z: the table's own order.
    public static let natural = InspectorSort(column: .key, descending: false)

    /// A sort by `column`, ascending unless `descending`.
    public init(column: Column, descending: Bool = false) {
        self.column = column
        self.descending = descending
    }

    /// After a click on `column`'s header: the same column reverses, another starts ascending.
    public func clicked(_ column: Column) -> InspectorSort {
        column == self.column ? InspectorSort(column: column, descending: !descending) : InspectorSort(column: column)
    }

    /// The next order of a one-key cycle (the terminal's `s`): each column ascending, then
    /// descending, then the next column; after the value's, back to the key's.
    public var next: InspectorSort {
        if !descending { return InspectorSort(column: column, descending: true) }
        let all = Column.allCases
        let index = all.firstIndex(of: column) ?? 0
        return InspectorSort(column: all[(index + 1) % all.count])
    }

    /// What a header or status line says: `key ↑`, `value ↓`.
    public var label: String { column.rawValue + (descending ? " ↓" : " ↑") }
}
