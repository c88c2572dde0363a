/// Why a JSON text was rejected, and where.
///
/// The position is given both as a byte offset (for tools) and as a 1-based line and column
/// (for people editing a config file). Columns count characters, not bytes.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, phrased so the reader knows what to fix.
    public var message: String
    /// The byte offset of the problem from the start of the input.
    public var offset: Int
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, in characters.
    public var column: Int

    /// An error at an explicit position.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// An error at `offset` in `bytes`, working out the line and column.
    init(_ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        // A byte-order mark is not a character anyone sees in an editor.
        let hasByteOrderMark = end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        for index in (hasByteOrderMark ? 3 : 0)..<end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes belong to the character their lead byte started.
                column += 1
            }
        }
        self.init(message: message, offset: offset, line: line, column: column)
    }

    /// `line 3, column 14: expected ',' or '}' after object member`.
    public var description: String {
        "line \(line), column \(column): \(message)"
    }
}
