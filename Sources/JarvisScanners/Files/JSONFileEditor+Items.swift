import JarvisCore

/// Adding and removing members and elements the way a person would in that file.
extension JSONFileEditor {
    /// Inserts items after the last one of `node`, in the style of its neighbours: on their
    /// own lines with the same indentation and line ending when the container is written one
    /// item per line, else on the same line; a comma is added after the old last item, and a
    /// trailing comma is kept when the old last item had one.
    /// - Parameter preferMultiLine: how an empty `{}` or `[]` is opened up.
    func insertion(_ newItems: [(String?, JSONValue)], in node: JSONSyntaxNode, preferMultiLine: Bool)
        -> JSONTextEdit
    {
        let bytes = text.bytes
        let open = node.range.lowerBound
        let close = node.range.upperBound - 1
        guard let last = node.items.last else {
            let interior = (open + 1)..<close
            let outer = text.indentation(at: open)
            let inner = outer + style.indentUnit
            if text.isMultiLine(node) {
                return JSONTextEdit(
                    at: open + 1, inserting: style.newline + inner + body(newItems, indent: inner, multiLine: true))
            }
            if preferMultiLine && text.isBlank(interior) {
                let content = body(newItems, indent: inner, multiLine: true)
                return JSONTextEdit(
                    range: interior, replacement: style.newline + inner + content + style.newline + outer)
            }
            let pad: [UInt8] = style.padsInlineBrackets ? [0x20] : []
            let content = body(newItems, indent: outer, multiLine: false)
            if text.isBlank(interior) { return JSONTextEdit(range: interior, replacement: pad + content + pad) }
            return JSONTextEdit(at: open + 1, inserting: pad + content + [UInt8(ascii: ","), 0x20])
        }
        let valueEnd = last.value.range.upperBound
        let comma = [UInt8(ascii: ",")]
        if text.isMultiLine(node) {
            let indent = text.indentation(at: last.start)
            let content = body(newItems, indent: indent, multiLine: true)
            // After the old last item's comment on the same line, so the comment stays with it.
            let lineEnd = text.restOfLine(from: last.end)?.lineBreak ?? last.end
            if last.comma != nil {
                return JSONTextEdit(at: lineEnd, inserting: style.newline + indent + content + comma)
            }
            return JSONTextEdit(
                range: valueEnd..<lineEnd,
                replacement: comma + bytes[valueEnd..<lineEnd] + style.newline + indent + content)
        }
        let content = body(newItems, indent: text.indentation(at: last.start), multiLine: false)
        if let lastComma = last.comma {
            let space: [UInt8] = style.spaceAfterComma ? [0x20] : []
            return JSONTextEdit(at: lastComma + 1, inserting: space + content + comma)
        }
        return JSONTextEdit(at: valueEnd, inserting: style.separator(indent: [], multiLine: false) + content)
    }

    /// Removes item `index` of `node` with its separator: the whole line (with a comment on
    /// that same line) when it has a line of its own, else the item and one comma. Removing the
    /// last item also removes the comma before it, unless it had a trailing comma itself.
    ///
    /// Comments on the lines above stay: in real files they are as often section headers
    /// (`/* Modules */`) or settings commented out (`// "incremental": true,`) as notes on the
    /// member, and deleting one member must not delete what the person kept beside it.
    func deletion(of index: Int, in node: JSONSyntaxNode) -> JSONTextEdit {
        let items = node.items
        let item = items[index]
        let open = node.range.lowerBound
        let close = node.range.upperBound - 1
        if items.count == 1, text.isBlank((open + 1)..<item.start), text.isBlank(item.end..<close) {
            return JSONTextEdit(range: (open + 1)..<close, replacement: [])
        }
        let isLast = index == items.count - 1
        if text.startsLine(item.start), let rest = text.restOfLine(from: item.end) {
            let begin = text.lineStart(item.start)
            if isLast, item.comma == nil, index > 0, let previousComma = items[index - 1].comma {
                return JSONTextEdit(
                    range: previousComma..<rest.afterLineBreak,
                    replacement: Array(text.bytes[(previousComma + 1)..<begin]))
            }
            return JSONTextEdit(range: begin..<rest.afterLineBreak, replacement: [])
        }
        if !isLast { return JSONTextEdit(range: item.start..<items[index + 1].start, replacement: []) }
        if index > 0 {
            if let comma = item.comma, let previousComma = items[index - 1].comma {
                return JSONTextEdit(range: (previousComma + 1)..<(comma + 1), replacement: [])
            }
            return JSONTextEdit(range: items[index - 1].value.range.upperBound..<item.end, replacement: [])
        }
        return JSONTextEdit(range: item.start..<item.end, replacement: [])
    }

    /// New items as text, separated in the style of the place they go to.
    private func body(_ newItems: [(String?, JSONValue)], indent: [UInt8], multiLine: Bool) -> [UInt8] {
        var output: [UInt8] = []
        for (position, (key, value)) in newItems.enumerated() {
            if position > 0 { output += style.separator(indent: indent, multiLine: multiLine) }
            if let key {
                output += style.renderMember(key, value, indent: indent, multiLine: multiLine)
            } else {
                output += style.render(value, indent: indent, multiLine: multiLine)
            }
        }
        return output
    }
}
