/// Replace the bytes in `range` with `replacement`: the one change an edit makes to a file.
struct JSONTextEdit: Equatable {
    /// The bytes replaced, as offsets into the file; empty for an insertion.
    var range: Range<Int>
    /// The new bytes; empty for a removal.
    var replacement: [UInt8]

    /// A replacement of `range` by `replacement`.
    init(range: Range<Int>, replacement: [UInt8]) {
        self.range = range
        self.replacement = replacement
    }

    /// An insertion at `offset`.
    init(at offset: Int, inserting text: [UInt8]) {
        self.init(range: offset..<offset, replacement: text)
    }

    /// `bytes` with non-overlapping `edits` applied, every other byte copied as it was.
    static func apply(_ edits: [JSONTextEdit], to bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.count })
        var copied = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            output += bytes[copied..<max(copied, edit.range.lowerBound)]
            output += edit.replacement
            copied = max(copied, edit.range.upperBound)
        }
        output += bytes[copied...]
        return output
    }
}
