/// Changes one key of an XML property list's top-level dictionary in place, in the file's own
/// indentation, so every other byte stays as it was.
struct XMLSpanEdit {
    let bytes: [UInt8]
    let layout: XMLPropertyListLayout

    /// The new bytes and layout, and where the new value starts (nil when the key was
    /// removed); nil when the file's layout leaves no clean place for the change (a
    /// dictionary on one line, `<dict/>`), and the caller writes the whole file instead.
    func apply(key: String, at position: Int?, value: PropertyList?) throws(PropertyListError)
        -> (bytes: [UInt8], layout: XMLPropertyListLayout, valueStart: Int?)?
    {
        switch (position, value) {
        case (let position?, let value?):
            let entry = layout.entries[position]
            guard let indent = indentation(before: entry.keyStart) else { return nil }
            var writer = XMLPropertyListWriter()
            writer.indent = indent.isEmpty ? [0x09] : indent
            try writer.write(value, level: 1)
            var text = writer.out
            text.removeLast()  // the line feed: the file's own follows the old value
            var edited = bytes
            edited.replaceSubrange(entry.valueStart..<entry.valueEnd, with: text)
            var layout = shifted(from: position + 1, by: text.count - (entry.valueEnd - entry.valueStart))
            layout.entries[position].valueEnd = entry.valueStart + text.count
            return (edited, layout, entry.valueStart)
        case (let position?, nil):
            let entry = layout.entries[position]
            var start = entry.keyStart
            var end = entry.valueEnd
            if let indent = indentation(before: entry.keyStart), let lineEnd = lineEnd(after: entry.valueEnd) {
                start = entry.keyStart - indent.count
                end = lineEnd
            }
            var edited = bytes
            edited.removeSubrange(start..<end)
            var layout = shifted(from: position + 1, by: start - end)
            layout.entries.remove(at: position)
            return (edited, layout, nil)
        case (nil, let value?):
            guard let close = layout.closeTag, let closeIndent = indentation(before: close) else { return nil }
            let indent = layout.entries.last.flatMap { indentation(before: $0.keyStart) } ?? [0x09]
            let insertAt = close - closeIndent.count
            var writer = XMLPropertyListWriter()
            writer.indent = indent.isEmpty ? [0x09] : indent
            try writer.writeMember(PropertyList.Member(key, value), level: 1)
            let text = writer.out
            var edited = bytes
            edited.insert(contentsOf: text, at: insertAt)
            var layout = self.layout
            layout.closeTag = close + text.count
            // `<key>` after the indentation; the value after the key's line and the indentation.
            let keyStart = insertAt + writer.indent.count
            let keyLine = text.firstIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let valueStart = insertAt + keyLine + writer.indent.count
            layout.entries.append(
                XMLPropertyListLayout.Entry(
                    keyStart: keyStart, valueStart: valueStart, valueEnd: insertAt + text.count - 1))
            return (edited, layout, valueStart)
        case (nil, nil):
            return nil
        }
    }

    /// The whitespace from the start of the line to `offset`; nil when something else
    /// precedes it on its line.
    private func indentation(before offset: Int) -> [UInt8]? {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return nil }
        return Array(bytes[start..<offset])
    }

    /// The offset just past the line feed that ends the line at `offset`, when only
    /// whitespace is left on it.
    private func lineEnd(after offset: Int) -> Int? {
        var end = offset
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x0D { end += 1 }
        return end < bytes.count && bytes[end] == 0x0A ? end + 1 : nil
    }

    /// The layout with every entry from `first` on, and the closing tag, moved by `delta`.
    private func shifted(from first: Int, by delta: Int) -> XMLPropertyListLayout {
        var layout = self.layout
        if delta == 0 { return layout }
        for index in first..<layout.entries.count {
            layout.entries[index].keyStart += delta
            layout.entries[index].valueStart += delta
            layout.entries[index].valueEnd += delta
        }
        layout.closeTag = layout.closeTag.map { $0 + delta }
        return layout
    }
}
