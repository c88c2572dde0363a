import Foundation

/// Reads JSON text strictly by RFC 8259, keeping number text and key order.
///
/// Anything RFC 8259 does not allow is rejected rather than guessed at: comments, trailing
/// commas, single quotes, `NaN`, leading zeros, invalid UTF-8, lone surrogate escapes and
/// duplicate keys. Parsing is iterative, so hostile nesting produces an error, never a stack
/// overflow. All functions are pure and safe to call from any thread.
public enum JSONParser {
    /// The default nesting limit: deep enough for any real config or RPC message, shallow
    /// enough that the resulting value can be walked recursively.
    public static let defaultMaxDepth = 512

    /// Parses exactly one JSON value, with optional surrounding whitespace.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text; a byte order mark is not accepted.
    ///   - maxDepth: How many arrays and objects may nest inside one another. Raise it with
    ///     care: a much deeper value can overflow the stack later, when it is written,
    ///     compared or destroyed, since those walk it recursively.
    /// - Throws: ``JSONParseError`` naming the first problem and its position.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes.assumingMemoryBound(to: UInt8.self), maxDepth: maxDepth)
        return try reader.readDocument()
    }

    /// Parses exactly one JSON value from UTF-8 bytes, with the same rules as the raw-buffer overload.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    /// Parses exactly one JSON value from UTF-8 bytes, charging what the value takes in memory
    /// (see ``ExpansionBudget``) against `budget`; the read stops once it passes what is left.
    /// - Throws: ``JSONParseError``; past the budget, with `budget` charged past its limit.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, budget: inout ExpansionBudget)
        throws(JSONParseError) -> JSONValue
    {
        try JSONReader.read(bytes, maxDepth: maxDepth, budget: &budget) { reader throws(JSONParseError) in
            try reader.readDocument()
        }
    }

    /// Parses exactly one JSON value from UTF-8 bytes, such as one line of a larger buffer.
    public static func parse(
        _ bytes: ArraySlice<UInt8>,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    /// Parses exactly one JSON value from UTF-8 data, such as a file's contents.
    public static func parse(_ data: Data, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try data.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    /// Parses exactly one JSON value from a string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }
        }.get()
    }
}
