/// A JSON or JSONC text read with the byte position of every value, key and comma, so an
/// editor can change one value by replacing only its bytes.
///
/// Everything between the positions (whitespace, line endings, comments, a byte-order mark)
/// is trivia: it is not kept in the tree, because an edit at a value's range leaves it as it
/// was in the text. Comments and trailing commas are accepted (JSONC, as tsconfig.json and
/// VS Code settings use them); everything else follows RFC 8259, duplicate keys included.
package struct JSONSyntaxTree: Sendable {
    /// The top-level value.
    package var root: JSONSyntaxNode
    /// Whether the text starts with a UTF-8 byte-order mark (`EF BB BF`), skipped when read.
    package var hasByteOrderMark: Bool

    /// Reads JSONC text.
    /// - Throws: ``JSONParseError`` naming the first problem with its line and column.
    package init(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) {
        let parsed = try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in
                var reader = JSONReader(buffer, maxDepth: maxDepth)
                return try reader.readSyntaxDocument()
            }
        }.get()
        root = parsed.root
        hasByteOrderMark = parsed.hasByteOrderMark
    }

    /// Reads JSONC text, charging what its values take in memory against `budget` (see
    /// ``JSONParser/parse(_:maxDepth:budget:)``).
    /// - Throws: ``JSONParseError``; past the budget, with `budget` charged past its limit.
    package init(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth, budget: inout ExpansionBudget)
        throws(JSONParseError)
    {
        let parsed = try JSONReader.read(bytes, maxDepth: maxDepth, budget: &budget) { reader throws(JSONParseError) in
            try reader.readSyntaxDocument()
        }
        root = parsed.root
        hasByteOrderMark = parsed.hasByteOrderMark
    }
}

/// One value in a ``JSONSyntaxTree``: its bytes and, for arrays and objects, their items.
package struct JSONSyntaxNode: Sendable {
    /// What the value is.
    package enum Content: Sendable {
        /// A string, number, boolean or `null`.
        case scalar(JSONValue)
        /// An array's elements, in order.
        case array([JSONSyntaxItem])
        /// An object's members, in order.
        case object([JSONSyntaxItem])
    }

    /// The value's bytes: from its first byte to just after its last (`"…"`, `[…]`, `{…}`).
    package var range: Range<Int>
    /// The value.
    package var content: Content

    /// The items of an array or object; empty for a scalar.
    package var items: [JSONSyntaxItem] {
        switch content {
        case .scalar: []
        case .array(let items), .object(let items): items
        }
    }

    /// Whether this is an array or an object.
    package var isContainer: Bool {
        if case .scalar = content { return false }
        return true
    }

    /// The value as a ``JSONValue`` (numbers keep their literal text).
    package var value: JSONValue {
        switch content {
        case .scalar(let value):
            return value
        case .array(let items):
            return .array(items.map(\.value.value))
        case .object(let items):
            var object = JSONObject()
            object.reserveCapacity(items.count)
            // The reader refused duplicate keys, so every key is new.
            for item in items { object.appendNewMember(item.key ?? "", item.value.value) }
            return .object(object)
        }
    }
}

/// One member of an object or element of an array, with the positions an edit needs.
package struct JSONSyntaxItem: Sendable {
    /// The member's key; nil for an array element.
    package var key: String?
    /// Where the item starts: its key's opening quote, or the element's first byte.
    package var start: Int
    /// The member's or element's value.
    package var value: JSONSyntaxNode
    /// The offset of the comma after the item, if one follows it (a trailing comma included).
    package var comma: Int?

    /// Just after the item: after its comma if it has one, else after its value.
    package var end: Int { comma.map { $0 + 1 } ?? value.range.upperBound }
}
