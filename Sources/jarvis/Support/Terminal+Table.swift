extension Terminal {
    /// Prints `rows` (the first is the heading, in bold) as columns as wide as their longest
    /// cell, two spaces apart; the last column is never padded, and on a terminal each line is
    /// cut to its width.
    static func table(_ rows: [[String]]) {
        guard let first = rows.first else { return }
        var widths = [Int](repeating: 0, count: first.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        for (number, row) in rows.enumerated() {
            let line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : pad(cell, widths[index] + 2)
            }.joined()
            let fitted = fit(line, width)
            out(number == 0 ? bold(fitted) : fitted)
        }
    }
}
