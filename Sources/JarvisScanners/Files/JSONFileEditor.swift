import JarvisCore

/// Changes one top-level key of a JSON or JSONC file by rewriting only the bytes it touches,
/// as editors do: the file is read into a ``JSONSyntaxTree`` that keeps positions, the new
/// value is compared with the old one, and the difference becomes a text edit at the byte
/// range of the value, member or element that changed.
///
/// Every other byte stays as it was: indentation, line endings, escapes, the spelling of
/// numbers, one-line arrays, comments and a byte-order mark. New text (a new member, a
/// replaced value) is written in the file's own style (see ``JSONTextStyle``). A pointer edit
/// arrives as the whole new value of its key, so the comparison walks down to the one place
/// that differs and edits only there.
struct JSONFileEditor {
    /// The file as read.
    let text: JSONText
    /// Its syntax tree; the root is an object.
    let tree: JSONSyntaxTree
    /// How the file is written.
    let style: JSONTextStyle

    /// Reads a file's bytes.
    /// - Throws: ``JarvisError`` `.storage` naming the problem and its line and column.
    init(bytes: [UInt8]) throws(JarvisError) {
        tree = try JSONFileDocument.syntaxTree(bytes)
        text = JSONText(bytes: bytes)
        style = JSONTextStyle(bytes: bytes, tree: tree)
    }

    /// The value of a top-level key as the file holds it; nil when absent.
    func value(of key: String) -> JSONValue? {
        tree.root.items.first { $0.key == key }?.value.value
    }

    /// The file's bytes with `key` set to `value`.
    /// - Throws: ``JarvisError`` `.typeMismatch` for values JSON cannot hold (dates, data).
    func setting(_ key: String, to value: PreferenceValue) throws(JarvisError) -> [UInt8] {
        let root = tree.root
        let edits: [JSONTextEdit]
        if let item = root.items.first(where: { $0.key == key }) {
            edits = try self.edits(
                replacing: item.value, with: value, itemStart: item.start, parentMultiLine: text.isMultiLine(root),
                path: "/" + key)
        } else {
            let json = try JSONFileValue.json(value, template: nil, path: "/" + key)
            edits = [insertion([(key, json)], in: root, preferMultiLine: true)]
        }
        return JSONTextEdit.apply(edits, to: text.bytes)
    }

    /// The file's bytes without the top-level `key`; nil when there is no such key.
    func removing(_ key: String) -> [UInt8]? {
        guard let index = tree.root.items.firstIndex(where: { $0.key == key }) else { return nil }
        return JSONTextEdit.apply([deletion(of: index, in: tree.root)], to: text.bytes)
    }

    // MARK: - Comparing

    /// The edits that turn `node` into `value`: none when they are equal, edits inside when
    /// only some members or elements differ, else one edit replacing the node's bytes.
    private func edits(
        replacing node: JSONSyntaxNode,
        with value: PreferenceValue,
        itemStart: Int,
        parentMultiLine: Bool,
        path: String
    ) throws(JarvisError) -> [JSONTextEdit] {
        let old = node.value
        if JSONFileValue.preferenceValue(old).0 == value { return [] }
        switch (node.content, value) {
        case (.object(let items), .dictionary(let members)):
            let multiLine = items.isEmpty ? parentMultiLine : text.isMultiLine(node)
            if let edits = try objectEdits(node, items: items, members: members, multiLine: multiLine, path: path) {
                return edits
            }
        case (.array(let items), .array(let elements)):
            let multiLine = items.isEmpty ? parentMultiLine : text.isMultiLine(node)
            if let edits = try arrayEdits(node, items: items, elements: elements, multiLine: multiLine, path: path) {
                return edits
            }
        default:
            break
        }
        let multiLine = node.items.isEmpty ? parentMultiLine : text.isMultiLine(node)
        let json = try JSONFileValue.json(value, template: old, path: path)
        let replacement = style.render(json, indent: text.indentation(at: itemStart), multiLine: multiLine)
        return [JSONTextEdit(range: node.range, replacement: replacement)]
    }

    /// Edits inside an object whose members changed values, plus at most one removed member
    /// or one run of added ones; nil when more changed (the whole object is rewritten).
    /// - Parameter multiLine: whether new members go on lines of their own.
    private func objectEdits(
        _ node: JSONSyntaxNode,
        items: [JSONSyntaxItem],
        members: [String: PreferenceValue],
        multiLine: Bool,
        path: String
    ) throws(JarvisError) -> [JSONTextEdit]? {
        let removed = items.indices.filter { members[items[$0].key ?? ""] == nil }
        let oldKeys = Set(items.compactMap(\.key))
        let added = members.keys.filter { !oldKeys.contains($0) }.sorted()
        guard removed.isEmpty || removed.count < items.count, removed.count + (added.isEmpty ? 0 : 1) <= 1 else {
            return nil
        }
        var edits: [JSONTextEdit] = []
        for item in items {
            guard let key = item.key, let member = members[key] else { continue }
            edits += try self.edits(
                replacing: item.value, with: member, itemStart: item.start, parentMultiLine: multiLine,
                path: path + "/" + key)
        }
        if let index = removed.first { edits.append(deletion(of: index, in: node)) }
        if !added.isEmpty {
            var newItems: [(String?, JSONValue)] = []
            for key in added {
                guard let member = members[key] else { continue }
                newItems.append((key, try JSONFileValue.json(member, template: nil, path: path + "/" + key)))
            }
            edits.append(insertion(newItems, in: node, preferMultiLine: multiLine))
        }
        return edits
    }

    /// Edits inside an array whose elements changed in place, that grew at its end, or that
    /// lost one element; nil otherwise (the whole array is rewritten).
    /// - Parameter multiLine: whether new elements go on lines of their own.
    private func arrayEdits(
        _ node: JSONSyntaxNode,
        items: [JSONSyntaxItem],
        elements: [PreferenceValue],
        multiLine: Bool,
        path: String
    ) throws(JarvisError) -> [JSONTextEdit]? {
        if elements.count >= items.count {
            var edits: [JSONTextEdit] = []
            for (index, item) in items.enumerated() {
                edits += try self.edits(
                    replacing: item.value, with: elements[index], itemStart: item.start, parentMultiLine: multiLine,
                    path: path + "/\(index)")
            }
            if elements.count > items.count {
                var newItems: [(String?, JSONValue)] = []
                for index in items.count..<elements.count {
                    newItems.append(
                        (nil, try JSONFileValue.json(elements[index], template: nil, path: path + "/\(index)")))
                }
                edits.append(insertion(newItems, in: node, preferMultiLine: multiLine))
            }
            return edits
        }
        guard elements.count == items.count - 1 else { return nil }
        let old = items.map { JSONFileValue.preferenceValue($0.value.value).0 }
        var removed = 0
        while removed < elements.count && old[removed] == elements[removed] { removed += 1 }
        guard Array(old[(removed + 1)...]) == Array(elements[removed...]) else { return nil }
        return [deletion(of: removed, in: node)]
    }
}
