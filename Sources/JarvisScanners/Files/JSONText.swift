import JarvisCore

/// Questions about the lines of a JSON text that editing asks: where a line starts, what
/// indents it, whether an item is alone on its line, where a line's trailing comment ends.
struct JSONText {
    let bytes: [UInt8]

    /// The offset just after the line break before `offset` (0 on the first line, after a BOM).
    func lineStart(_ offset: Int) -> Int {
        var index = offset
        while index > 0 && bytes[index - 1] != 0x0A { index -= 1 }
        if index == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return min(3, offset) }
        return index
    }

    /// The spaces and tabs that begin the line holding `offset`.
    func indentation(at offset: Int) -> [UInt8] {
        var index = lineStart(offset)
        var result: [UInt8] = []
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// Whether only spaces and tabs come before `offset` on its line.
    func startsLine(_ offset: Int) -> Bool {
        bytes[lineStart(offset)..<offset].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// The byte just before `offset`, if any.
    func byteBefore(_ offset: Int) -> UInt8? {
        offset > 0 ? bytes[offset - 1] : nil
    }

    /// Whether an array or object puts its items on their own lines: a line break comes
    /// between its opening bracket and its first item (or its closing bracket).
    func isMultiLine(_ node: JSONSyntaxNode) -> Bool {
        let end = node.items.first?.start ?? (node.range.upperBound - 1)
        return bytes[(node.range.lowerBound + 1)..<end].contains(0x0A)
    }

    /// Whether the bytes in `range` are only whitespace (no comment).
    func isBlank(_ range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// From `offset`, skips spaces, tabs and at most one comment that ends on the same line,
    /// and returns where the line break starts; nil when something else follows on the line.
    func restOfLine(from offset: Int) -> (lineBreak: Int, afterLineBreak: Int)? {
        var index = skipSpaces(from: offset)
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/") {
            if bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                if index > offset, bytes[index - 1] == 0x0D { index -= 1 }
            } else if bytes[index + 1] == UInt8(ascii: "*") {
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) {
                    guard bytes[end] != 0x0A else { return nil }
                    end += 1
                }
                index = skipSpaces(from: end + 2)
            }
        }
        if index < bytes.count, bytes[index] == 0x0A { return (index, index + 1) }
        if index + 1 < bytes.count, bytes[index] == 0x0D, bytes[index + 1] == 0x0A { return (index, index + 2) }
        if index == bytes.count { return (index, index) }
        return nil
    }

    private func skipSpaces(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index
    }
}
