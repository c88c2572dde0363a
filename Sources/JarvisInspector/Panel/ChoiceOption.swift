/// One entry of a choice editor: a value the catalog allows, or the stored value when the
/// catalog does not list it (so the picker shows what is there instead of a blank).
public struct ChoiceOption: Sendable, Hashable, Identifiable {
    /// The value as editor text (what ``ValueDraft/value(from:)`` reads).
    public var text: String
    /// What the picker shows.
    public var label: String
    /// Whether the catalog allows it; false for a stored value outside the catalog, which
    /// cannot be saved as it is.
    public var isAllowed: Bool
    /// The option's identity: its text.
    public var id: String { text }
}

extension ValueDraft {
    /// The choice editor's entries: the catalog's values in its order, preceded by the stored
    /// value, marked "not in the catalog", when the catalog does not list it.
    public var choiceOptions: [ChoiceOption] {
        let allowed = choices.map {
            ChoiceOption(text: ValueFormat.editText($0), label: ValueFormat.preview($0, limit: 40), isAllowed: true)
        }
        guard !isNew, !allowed.contains(where: { $0.text == text }) else { return allowed }
        let shown = text.isEmpty ? "(empty)" : ValueFormat.preview(.string(text), limit: 30)
        return [ChoiceOption(text: text, label: shown + " (not in the catalog)", isAllowed: false)] + allowed
    }

    /// The choice editor's first selection: the stored value, or for a new key the first
    /// value the catalog allows.
    var choiceStartText: String {
        if isNew, !choices.contains(where: { ValueFormat.editText($0) == text }), let first = choices.first {
            return ValueFormat.editText(first)
        }
        return text
    }
}
