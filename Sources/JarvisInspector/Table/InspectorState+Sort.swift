import Foundation
import JarvisCore

extension InspectorState {
    /// `rows` (in table order, as ``tableRows(scanner:container:filter:chips:previewLimit:now:)``
    /// and ``rows(_:filter:previewLimit:now:)`` give them) in the order `sort` asks for.
    ///
    /// Ties keep the table order (by key), so the order is total and the same in every face.
    /// By value, kinds stay apart (booleans, numbers, dates, text, data, arrays, dictionaries,
    /// then rows with no value to show: unset, masked, scanners and containers); within a
    /// kind, numbers compare as numbers, dates in time, text in natural order, data, arrays
    /// and dictionaries by size.
    public func sorted(_ rows: [InspectorRow], by sort: InspectorSort) -> [InspectorRow] {
        let ascending: [InspectorRow]
        switch sort.column {
        case .key:
            ascending = rows
        case .type:
            ascending = stableSorted(rows) { ($0.type?.rawValue ?? "~").naturalOrder(($1.type?.rawValue ?? "~")) }
        case .value:
            let keys = rows.map { row in SortValue(shownValue(row)) }
            ascending = stableSortedIndices(rows.count) { keys[$0].order(keys[$1]) }.map { rows[$0] }
        }
        return sort.descending ? ascending.reversed() : ascending
    }

    /// The value a row shows, if it shows one that may be compared (not unset, not masked).
    private func shownValue(_ row: InspectorRow) -> PreferenceValue? {
        guard let address = row.target.address, !row.has(.unset), !row.has(.masked) else { return nil }
        return value(at: address, row.target.pointer)
    }

    private func stableSorted(_ rows: [InspectorRow], _ order: (InspectorRow, InspectorRow) -> Int) -> [InspectorRow] {
        stableSortedIndices(rows.count) { order(rows[$0], rows[$1]) }.map { rows[$0] }
    }

    /// Indices `0..<count` sorted by `order` (-1, 0, 1), ties by index.
    private func stableSortedIndices(_ count: Int, _ order: (Int, Int) -> Int) -> [Int] {
        Array(0..<count).sorted { left, right in
            let found = order(left, right)
            return found != 0 ? found < 0 : left < right
        }
    }
}

/// A value reduced to what sorting compares: its kind, then a number or a text.
private struct SortValue {
    let kind: Int
    let number: Double
    let text: String

    init(_ value: PreferenceValue?) {
        switch value {
        case .boolean(let flag)?: (kind, number, text) = (0, flag ? 1 : 0, "")
        case .integer(let integer)?: (kind, number, text) = (1, Double(integer), "")
        case .real(let real)?: (kind, number, text) = (1, real.isNaN ? -.infinity : real, "")
        case .bigNumber(let big)?: (kind, number, text) = (1, Double(big.literal) ?? 0, "")
        case .date(let date)?:
            let seconds = date.timeIntervalSince1970
            (kind, number, text) = (2, seconds.isNaN ? -.infinity : seconds, "")
        case .string(let string)?: (kind, number, text) = (3, 0, string)
        case .data(let data)?: (kind, number, text) = (4, Double(data.count), "")
        case .array(let elements)?: (kind, number, text) = (5, Double(elements.count), "")
        case .dictionary(let members)?: (kind, number, text) = (6, Double(members.count), "")
        case nil: (kind, number, text) = (7, 0, "")
        }
    }

    /// -1, 0 or 1 as this comes before, with or after `other`.
    func order(_ other: SortValue) -> Int {
        if kind != other.kind { return kind < other.kind ? -1 : 1 }
        if number != other.number { return number < other.number ? -1 : 1 }
        return text.naturalOrder(other.text)
    }
}

extension String {
    /// -1, 0 or 1 as this comes before, with or after `other` in natural order.
    fileprivate func naturalOrder(_ other: String) -> Int {
        self == other ? 0 : (naturallyBefore(other) ? -1 : 1)
    }
}
