/// Reading JSONC into a ``JSONSyntaxTree``: positions kept, comments and trailing commas
/// allowed, a byte-order mark skipped. Strings, numbers and literals are read by the same code
/// as strict JSON, so they follow the same rules.
///
/// Nesting is read recursively, one call per level, bounded by `maxDepth` (512 by default,
/// as deep as values are walked elsewhere).
extension JSONReader {
    /// Reads the single top-level value, checking nothing but whitespace and comments follow it.
    mutating func readSyntaxDocument() throws(JSONParseError) -> (root: JSONSyntaxNode, hasByteOrderMark: Bool) {
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        if hasByteOrderMark { position = 3 }
        try skipTrivia()
        guard position < bytes.count else {
            throw error("the file holds no JSON value (it is empty or only comments); write {} at least")
        }
        let root = try readSyntaxValue(depth: 0)
        try skipTrivia()
        if position < bytes.count {
            throw error(
                "unexpected \(describe(bytes[position])) after the end of the top-level value; only whitespace and comments may follow it"
            )
        }
        return (root, hasByteOrderMark)
    }

    /// Skips whitespace, `// line` and `/* block */` comments.
    mutating func skipTrivia() throws(JSONParseError) {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            case UInt8(ascii: "/"):
                let start = position
                let next: UInt8? = position + 1 < bytes.count ? bytes[position + 1] : nil
                if next == UInt8(ascii: "/") {
                    position += 2
                    while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
                } else if next == UInt8(ascii: "*") {
                    position += 2
                    while position + 1 < bytes.count
                        && !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
                    {
                        position += 1
                    }
                    guard position + 1 < bytes.count else {
                        throw error("unterminated comment: a /* comment is never closed; add */ after it", at: start)
                    }
                    position += 2
                } else {
                    throw error("unexpected '/'; a comment starts with // or /*", at: start)
                }
            default:
                return
            }
        }
    }

    private mutating func readSyntaxValue(depth: Int) throws(JSONParseError) -> JSONSyntaxNode {
        try skipTrivia()
        guard position < bytes.count else { throw error("unexpected end of the file; expected a value") }
        let start = position
        let value: JSONValue
        switch bytes[position] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try readSyntaxContainer(depth: depth)
        case UInt8(ascii: "'"):
            throw error("strings must use double quotes, not single quotes")
        case let byte:
            guard let scalar = try readScalar() else { throw error("expected a value, found \(describe(byte))") }
            value = scalar
        }
        return JSONSyntaxNode(range: start..<position, content: .scalar(value))
    }

    /// Reads `{…}` or `[…]` starting at its opening bracket.
    private mutating func readSyntaxContainer(depth: Int) throws(JSONParseError) -> JSONSyntaxNode {
        guard depth < maxDepth else {
            throw error("nesting is deeper than the limit of \(maxDepth) arrays and objects")
        }
        let start = position
        try charge(Self.valueCost)
        let isObject = bytes[position] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let noun = isObject ? "member" : "element"
        position += 1
        var items: [JSONSyntaxItem] = []
        var keys: Set<String> = []
        while true {
            try skipTrivia()
            guard position < bytes.count else {
                throw error(
                    "unexpected end of the file: the \(isObject ? "object" : "array") opened here is never closed with '\(Character(Unicode.Scalar(close)))'",
                    at: start)
            }
            if bytes[position] == close {
                position += 1
                let range = start..<position
                return JSONSyntaxNode(range: range, content: isObject ? .object(items) : .array(items))
            }
            let itemStart = position
            var key: String?
            if isObject {
                guard bytes[position] == UInt8(ascii: "\"") else {
                    if bytes[position] == UInt8(ascii: ",") {
                        throw error(items.isEmpty ? "a comma before the first member" : "two commas in a row")
                    }
                    throw error(
                        bytes[position] == UInt8(ascii: "'")
                            ? "keys must use double quotes, not single quotes"
                            : "expected a double-quoted key or '}', found \(describe(bytes[position]))")
                }
                let name = try readString()
                try charge(key: name)
                let (inserted, first) = keys.insert(name)
                guard inserted else {
                    // Not named: the key may be one the configuration hides.
                    throw error(
                        first.utf8.elementsEqual(name.utf8)
                            ? "a key written twice in one object; each key may appear only once"
                            : "a key written twice in one object, in two Unicode spellings of one name (composed and decomposed, such as ñ and n + U+0303), which Jarvis reads as one; each key may appear only once",
                        at: itemStart)
                }
                try skipTrivia()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    // Placed by line and column, never named: the key may be one a rule hides.
                    throw error(
                        "expected ':' after a key, found \(position < bytes.count ? describe(bytes[position]) : "the end of the file")"
                    )
                }
                position += 1
                key = name
            } else if bytes[position] == UInt8(ascii: ",") {
                throw error(items.isEmpty ? "a comma before the first element" : "two commas in a row")
            }
            let value = try readSyntaxValue(depth: depth + 1)
            try skipTrivia()
            var item = JSONSyntaxItem(key: key, start: itemStart, value: value, comma: nil)
            if position < bytes.count && bytes[position] == UInt8(ascii: ",") {
                item.comma = position
                position += 1
                items.append(item)
                continue
            }
            items.append(item)
            // At the end of the file, the loop's first check names the unclosed bracket.
            guard position == bytes.count || bytes[position] == close else {
                let after = key == nil ? "an array element" : "a member"
                throw error(
                    "a comma must separate \(noun)s: expected ',' or '\(Character(Unicode.Scalar(close)))' after \(after), found \(describe(bytes[position]))"
                )
            }
        }
    }
}
