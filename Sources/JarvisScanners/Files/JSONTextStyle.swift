import JarvisCore

/// How a JSON file is written, learnt from the file itself, so the text of a new or replaced
/// value looks like its neighbours: the indentation unit, the line ending, the spacing after
/// `:` and `,`, the padding inside one-line brackets, and whether non-ASCII text is escaped.
struct JSONTextStyle {
    /// One level of indentation: a tab, two spaces, four spaces….
    var indentUnit: [UInt8] = Array("  ".utf8)
    /// `\n` or `\r\n`.
    var newline: [UInt8] = [0x0A]
    /// Whether a space follows the `:` of a member.
    var spaceAfterColon = true
    /// Whether a space follows the `,` of a one-line array or object.
    var spaceAfterComma = true
    /// Whether a one-line array or object has a space inside its brackets: `{ "a": 1 }`.
    var padsInlineBrackets = false
    /// Whether the file writes non-ASCII characters as `\u` escapes (and holds none raw).
    var escapesNonASCII = false
    /// Whether the file writes `/` as `\/` in strings, as PHP's `json_encode` does.
    var escapesSlashes = false

    /// The style of `bytes`, parsed as `tree`.
    init(bytes: [UInt8], tree: JSONSyntaxTree) {
        if let firstNewline = bytes.firstIndex(of: 0x0A), firstNewline > 0, bytes[firstNewline - 1] == 0x0D {
            newline = [0x0D, 0x0A]
        }
        var sawEscape = false
        var sawRaw = false
        var sawEscapedSlash = false
        var index = tree.hasByteOrderMark ? 3 : 0
        // Stops once both answers are known: raw non-ASCII seen, and an escaped slash seen.
        while index < bytes.count && !(sawRaw && sawEscapedSlash) {
            let byte = bytes[index]
            if byte >= 0x80 {
                sawRaw = true
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "u"), index + 6 <= bytes.count,
                    let unit = UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16),
                    unit >= 0x80
                {
                    sawEscape = true
                }
                if bytes[index + 1] == UInt8(ascii: "/") { sawEscapedSlash = true }
                // Skip the escaped character, so `\\u00e9` (a backslash, then text) is no escape.
                index += 2
                continue
            }
            index += 1
        }
        escapesNonASCII = sawEscape && !sawRaw
        escapesSlashes = sawEscapedSlash
        learnLayout(bytes: bytes, root: tree.root)
    }

    /// Looks at the first containers of each kind for indentation and spacing, breadth first,
    /// stopping as soon as everything is known (a large file is not walked through).
    private mutating func learnLayout(bytes: [UInt8], root: JSONSyntaxNode) {
        let text = JSONText(bytes: bytes)
        var learntIndent = false
        var learntColon = false
        var learntComma = false
        var learntPadding = false
        var queue = [root]
        var next = 0
        var visited = 0
        while next < queue.count, visited < 10_000, !(learntIndent && learntColon && learntComma && learntPadding) {
            let node = queue[next]
            next += 1
            visited += 1
            let items = node.items
            guard let first = items.first else { continue }
            if case .object = node.content, !learntColon {
                let afterColon = text.byteBefore(first.value.range.lowerBound)
                spaceAfterColon = afterColon == UInt8(ascii: " ") || afterColon == UInt8(ascii: "\t")
                learntColon = true
            }
            if text.isMultiLine(node) {
                if !learntIndent, text.startsLine(first.start) {
                    let outer = text.indentation(at: node.range.lowerBound)
                    let inner = text.indentation(at: first.start)
                    if inner.count > outer.count, Array(inner.prefix(outer.count)) == outer {
                        indentUnit = Array(inner.dropFirst(outer.count))
                        learntIndent = true
                    }
                }
            } else {
                if !learntPadding {
                    padsInlineBrackets = bytes[node.range.lowerBound + 1] == UInt8(ascii: " ")
                    learntPadding = true
                }
                if !learntComma, items.count > 1, let comma = first.comma, comma + 1 < bytes.count {
                    spaceAfterComma = bytes[comma + 1] == UInt8(ascii: " ")
                    learntComma = true
                }
            }
            for item in items where item.value.isContainer { queue.append(item.value) }
        }
        // A file with no one-line list of two items spaces its commas as its colons.
        if !learntComma { spaceAfterComma = spaceAfterColon }
    }

    // MARK: - Writing new values

    /// The text of a new value, in this style.
    /// - Parameters:
    ///   - indent: the indentation of the line the value starts on; nested lines get more.
    ///   - multiLine: one item per line (as the place it goes to is written), or all on one line.
    func render(_ value: JSONValue, indent: [UInt8], multiLine: Bool) -> [UInt8] {
        var output: [UInt8] = []
        render(value, indent: indent, multiLine: multiLine, into: &output)
        return output
    }

    /// `"key": value` in this style.
    func renderMember(_ key: String, _ value: JSONValue, indent: [UInt8], multiLine: Bool) -> [UInt8] {
        var output = scalar(.string(key))
        output.append(UInt8(ascii: ":"))
        if spaceAfterColon { output.append(UInt8(ascii: " ")) }
        render(value, indent: indent, multiLine: multiLine, into: &output)
        return output
    }

    /// The separator between two items: a comma and then a new line at `indent`, or a space.
    func separator(indent: [UInt8], multiLine: Bool) -> [UInt8] {
        if multiLine { return [UInt8(ascii: ",")] + newline + indent }
        return spaceAfterComma ? Array(", ".utf8) : [UInt8(ascii: ",")]
    }

    private func render(_ value: JSONValue, indent: [UInt8], multiLine: Bool, into output: inout [UInt8]) {
        let members: [(String?, JSONValue)]
        let brackets: (UInt8, UInt8)
        switch value {
        case .array(let elements) where !elements.isEmpty:
            members = elements.map { (nil, $0) }
            brackets = (UInt8(ascii: "["), UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            members = object.map { ($0.key, $0.value) }
            brackets = (UInt8(ascii: "{"), UInt8(ascii: "}"))
        default:
            output += scalar(value)
            return
        }
        let inner = multiLine ? indent + indentUnit : indent
        output.append(brackets.0)
        if multiLine {
            output += newline + inner
        } else if padsInlineBrackets {
            output.append(UInt8(ascii: " "))
        }
        for (position, (key, member)) in members.enumerated() {
            if position > 0 { output += separator(indent: inner, multiLine: multiLine) }
            if let key {
                output += renderMember(key, member, indent: inner, multiLine: multiLine)
            } else {
                render(member, indent: inner, multiLine: multiLine, into: &output)
            }
        }
        if multiLine {
            output += newline + indent
        } else if padsInlineBrackets {
            output.append(UInt8(ascii: " "))
        }
        output.append(brackets.1)
    }

    /// A scalar (or an empty container) as JSON, non-ASCII escaped when the file does so.
    private func scalar(_ value: JSONValue) -> [UInt8] {
        var plain = JSONWriter.bytes(value)
        if escapesSlashes, case .string = value, plain.contains(UInt8(ascii: "/")) {
            plain = plain.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
        }
        guard escapesNonASCII, plain.contains(where: { $0 >= 0x80 }) else { return plain }
        var output: [UInt8] = []
        output.reserveCapacity(plain.count + 16)
        for scalar in String(decoding: plain, as: UTF8.self).unicodeScalars {
            guard scalar.value >= 0x80 else {
                output.append(UInt8(scalar.value))
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                output += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            }
        }
        return output
    }
}
