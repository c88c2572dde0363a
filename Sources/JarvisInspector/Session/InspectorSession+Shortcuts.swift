import JarvisCore
import JarvisRemote

extension InspectorSession {
    /// What a quick edit did.
    public struct QuickEditResult: Sendable, Hashable {
        /// The draft that was sent (read with the revision the session had).
        public var draft: ValueDraft
        /// The text saved: the next value.
        public var text: String
        /// Saved, or the conflict's value as it is now.
        public var outcome: SaveOutcome
        /// After a conflict, the draft a face keeps open with ``text``, as after any
        /// conflicted save: at the revision stored now, so saving it overwrites theirs and
        /// dropping it keeps theirs. Nil when saved.
        public var kept: ValueDraft?
        /// After a conflict, the value the user started from, theirs and yours. Nil when saved.
        public var conflict: InspectorConflict?
    }

    /// Makes a row's quick edit: reads its draft (with the revision it was read at), takes
    /// the next value (``ValueDraft/quickText(_:)``) and saves it.
    /// - Returns: the draft that was sent, the text and the outcome. A conflict writes
    ///   nothing and, as for any save, keeps the draft: ``QuickEditResult/kept`` overwrites
    ///   theirs, and ``QuickEditResult/conflict`` shows both values.
    /// - Throws: ``JarvisError`` `.invalidParams` when the target offers no such quick edit,
    ///   `.readOnly` when no edit may be offered, and the agent's refusals.
    public func quickEdit(_ target: InspectorRow.Target, _ quickEdit: InspectorQuickEdit) throws(JarvisError)
        -> QuickEditResult
    {
        let draft = try self.draft(for: target)
        guard let text = draft.quickText(quickEdit) else {
            throw JarvisError(.invalidParams, Self.noQuickEdit(quickEdit, draft.title))
        }
        let outcome = try save(draft, text: text)
        var result = QuickEditResult(draft: draft, text: text, outcome: outcome)
        if case .conflict(let now) = outcome {
            result.kept = redraft(draft)
            result.conflict = InspectorConflict(draft: draft, yours: text, now: now)
        }
        return result
    }

    /// Why a quick edit is not offered on a value.
    static func noQuickEdit(_ quickEdit: InspectorQuickEdit, _ name: String) -> String {
        switch quickEdit {
        case .toggle: return "\(name) is not a boolean: Space toggles only true/false"
        case .nextChoice: return "\(name) has no catalogued choices: Tab cycles only those"
        }
    }

    /// The draft for a new element at the end of the array `target` holds: typed like its
    /// last element (text for an empty array), starting from that type's first text, and
    /// sent with the revision the array was read at.
    /// - Throws: ``JarvisError`` `.readOnly` when no edit may be offered, `.typeMismatch` when
    ///   the target holds no array, `.notFound` when it is gone.
    public func appendDraft(to target: InspectorRow.Target) throws(JarvisError) -> ValueDraft {
        let state = self.state
        guard let address = target.address, let item = state.shown(address) else {
            throw JarvisError(.notFound, "choose an array to add an element to")
        }
        try Self.checkEditable(state, item)
        let pointer = target.pointer
        let name = address.key + pointer.description
        guard let value = state.value(at: address, pointer) else {
            throw JarvisError(.notFound, "\(name) no longer exists")
        }
        guard case .array(let elements) = value else {
            throw JarvisError(.typeMismatch, "\(name) is \(value.type.rawValue), not an array: only arrays gain elements")
        }
        let type = elements.last?.type ?? .string
        var draft = ValueDraft(
            address: address, pointer: JSONPointer(tokens: pointer.tokens + [String(elements.count)]), type: type,
            text: ValueDraft.initialText(for: type), expectedRevision: item.revision)
        draft.isAppend = true
        return draft
    }
}

extension InspectorState {
    /// What a button that adds an element at the end of an array says.
    public static let addElementTitle = "Add element"

    /// The array an "add element" acts on from a level: the array the level lists, or else
    /// the row under the cursor when it holds one; nil when neither may gain an element.
    public func appendTarget(in level: InspectorLevel?, selected: InspectorRow?) -> InspectorRow.Target? {
        if case .value(let address, let pointer) = level, case .array? = value(at: address, pointer) {
            let target: InspectorRow.Target = pointer.isWhole ? .key(address) : .member(address, pointer)
            let parent = pointer.isWhole ? row(for: address) : parentRow(of: address, pointer)
            return parent?.isAppendable == true ? target : nil
        }
        guard let selected, selected.isAppendable else { return nil }
        return selected.target
    }

    private func parentRow(of address: PreferenceAddress, _ pointer: JSONPointer) -> InspectorRow? {
        rows(.value(address, JSONPointer(tokens: Array(pointer.tokens.dropLast()))))
            .first { $0.target == .member(address, pointer) }
    }
}
