import JarvisCore

/// What a detail screen shows about one key or nested member.
public struct InspectorDetail: Sendable, Hashable {
    /// One labelled fact, e.g. `type` / `integer`.
    public struct Fact: Sendable, Hashable {
        /// The label.
        public var label: String
        /// The text.
        public var text: String
    }

    /// The row the detail belongs to.
    public var row: InspectorRow
    /// Facts in order: scanner and container (two keys of one name in two containers read
    /// apart), type, status, revision (only for a stored value), catalog notes.
    public var facts: [Fact]
    /// The value as plain text (shortened when very large); nil when masked or unset.
    public var valueText: String?
    /// Why no value is shown: masked (and whether it may be revealed) or unset.
    public var note: String?
}

extension InspectorState {
    /// The detail of a key (`pointer` empty) or of a member inside it; nil when it is gone.
    public func detail(
        _ address: PreferenceAddress, _ pointer: JSONPointer = JSONPointer(tokens: []), limit: Int = detailLimit
    )
        -> InspectorDetail?
    {
        guard let item = shown(address) else { return nil }
        if !pointer.isWhole {
            guard let value = value(at: address, pointer),
                let row = rows(.value(address, JSONPointer(tokens: Array(pointer.tokens.dropLast()))))
                    .first(where: { $0.target == .member(address, pointer) })
            else { return nil }
            return InspectorDetail(
                row: row,
                facts: Self.place(address) + [
                    .init(label: "type", text: value.type.rawValue),
                    .init(label: "in", text: VisibleText.escaped(address.key + pointer.description)),
                ], valueText: ValueFormat.full(value, limit: limit), note: nil)
        }
        guard let row = self.row(for: address) else { return nil }
        var facts = Self.place(address) + [InspectorDetail.Fact(label: "type", text: item.type.rawValue)]
        var status: [String] = []
        let unset = Self.isUnset(item)
        if unset {
            status.append("unset: nothing is stored")
        } else {
            status.append(item.layer == .registered ? "registered default (nothing stored)" : "stored")
        }
        if let encoding = item.encoding { status.append("encoded as \(encoding.rawValue)") }
        if revealed[address] != nil { status.append("revealed") }
        if row.isReplaceable {
            // Masked, yet not read-only: say what can be done to it.
            status.append(
                row.isRevealable
                    ? "masked: reveal it to read it, or replace or delete it without seeing it"
                    : "masked: it can be replaced or deleted without being shown")
        } else {
            status.append(row.isEditable ? "writable" : (banner.map { $0.lowercased() } ?? "read-only"))
        }
        facts.append(.init(label: "status", text: status.joined(separator: ", ")))
        // An unset key has no stored revision to show.
        if !unset { facts.append(.init(label: "revision", text: item.revision.text)) }
        if let catalog = item.catalog {
            if let fallback = catalog.defaultValue {
                facts.append(.init(label: "default", text: ValueFormat.preview(fallback, limit: 200)))
            }
            if let allowed = catalog.allowedValues {
                facts.append(
                    .init(
                        label: "allowed",
                        text: allowed.map { ValueFormat.preview($0, limit: 40) }.joined(separator: ", ")))
            }
            if let range = catalog.range {
                facts.append(
                    .init(
                        label: "range",
                        text: "\(ValueDraft.number(range.lowerBound)) to \(ValueDraft.number(range.upperBound))"))
            }
            if let description = catalog.description { facts.append(.init(label: "about", text: description)) }
        }
        for note in item.notes { facts.append(.init(label: "note", text: note)) }
        if unset {
            let fallback = item.catalog?.defaultValue.map {
                "the default applies: " + ValueFormat.preview($0, limit: 200)
            }
            return InspectorDetail(row: row, facts: facts, valueText: nil, note: fallback ?? "unset, with no default")
        }
        if let mask = item.mask {
            let how = canReveal ? "reveal to see it" : "this agent does not allow revealing secrets"
            return InspectorDetail(
                row: row, facts: facts, valueText: nil,
                note:
                    "secret: \(mask.length) \(item.type == .string ? "characters" : "bytes"), fingerprint \(mask.fingerprint); \(how)"
            )
        }
        return InspectorDetail(
            row: row, facts: facts, valueText: item.value.map { ValueFormat.full($0, limit: limit) }, note: nil)
    }

    /// Where the key lives: its scanner and container, as a face shows names.
    private static func place(_ address: PreferenceAddress) -> [InspectorDetail.Fact] {
        [
            .init(label: "scanner", text: VisibleText.escaped(address.scanner)),
            .init(label: "container", text: VisibleText.escaped(address.container)),
        ]
    }
}
