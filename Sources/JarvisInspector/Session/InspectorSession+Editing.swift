import Foundation
import JarvisCore
import JarvisRemote

extension InspectorSession {
    /// The draft for editing a key or a nested member, with the editor that fits its type,
    /// the catalog's choices and range, and the revision it was read at.
    /// - Throws: ``JarvisError`` `.readOnly` when no edit may be offered (production, a
    ///   read-only scanner, a placeholder), `.notFound` when the key is gone.
    public func draft(for target: InspectorRow.Target) throws(JarvisError) -> ValueDraft {
        let state = self.state
        guard let address = target.address, let item = state.shown(address) else {
            throw JarvisError(.notFound, "choose a key or a value inside one")
        }
        try Self.checkEditable(state, item)
        let pointer = target.pointer
        let catalog = pointer.isWhole ? item.catalog : nil
        if !pointer.isWhole {
            guard let value = state.value(at: address, pointer) else {
                throw JarvisError(.notFound, "\(address.key)\(pointer.description) no longer exists")
            }
            try Self.checkEditableSize(value, address.key + pointer.description)
            return Self.draft(address, pointer, value: value, revision: item.revision)
        }
        if InspectorState.isUnset(item) {
            return ValueDraft(
                address: address, type: item.type, text: catalog?.defaultValue.map(ValueFormat.editText) ?? "",
                choices: catalog?.allowedValues ?? [], range: catalog?.range, expectedRevision: .absent)
        }
        guard let value = item.value else {
            // Editing starts from the value: a masked secret has none to start from, and an
            // empty field saved over it would wipe it. Replacing it is its own intent.
            throw Self.maskedRefusal(item, canReveal: state.canReveal)
        }
        try Self.checkEditableSize(value, address.key)
        var draft = Self.draft(address, pointer, value: value, revision: item.revision)
        draft.choices = catalog?.allowedValues ?? []
        draft.range = catalog?.range
        draft.editor = ValueDraft.editor(for: draft.type, choices: draft.choices)
        return draft
    }

    /// The draft for replacing a masked secret without seeing it: an empty field, refused
    /// empty, with a ``ValueDraft/confirmation`` the user must answer before it is sent.
    /// A revealed secret is edited with ``draft(for:)`` instead, from its value.
    /// - Throws: ``JarvisError`` `.readOnly` when no edit may be offered, `.invalidParams`
    ///   when the key is not a masked secret, `.notFound` when it is gone.
    public func replacementDraft(for address: PreferenceAddress) throws(JarvisError) -> ValueDraft {
        let state = self.state
        guard let item = state.shown(address) else { throw JarvisError(.notFound, "\(address.key) no longer exists") }
        try Self.checkEditable(state, item)
        guard let mask = item.mask, item.value == nil else {
            throw JarvisError(.invalidParams, "\(address.key) is not a masked secret; edit it instead")
        }
        var draft = ValueDraft(address: address, type: item.type, text: "", expectedRevision: item.revision)
        draft.replacesSecret = true
        draft.confirmation =
            "Replace the secret \(address.key) (\(mask.length) \(item.type == .string ? "characters" : "bytes"), fingerprint \(mask.fingerprint))? The old value is lost."
        return draft
    }

    /// The draft for a new key: the type the catalog declares (or `type`), its default as the
    /// starting text, sent as "must not exist yet".
    /// - Throws: ``JarvisError`` `.readOnly` in a read-only agent or container, `.invalidParams`
    ///   for an empty name or a key that exists, `.typeMismatch` for a type the catalog refuses.
    public func newDraft(scanner: String, container: String, key: String, type: PreferenceType) throws(JarvisError)
        -> ValueDraft
    {
        let state = self.state
        guard state.canEdit else { throw Self.readOnly(state) }
        guard !key.isEmpty else { throw JarvisError(.invalidParams, "a key needs a name") }
        let address = PreferenceAddress(scanner: scanner, container: container, key: key)
        if let existing = state.items[address] {
            if InspectorState.isUnset(existing) { return try draft(for: .key(address)) }
            throw JarvisError(.invalidParams, "'\(key)' already exists; edit it instead")
        }
        if let container = state.containers.first(where: { $0.scanner == scanner && $0.name == container }),
            !container.writable
        {
            throw JarvisError(.readOnly, "\(container.name) is read-only")
        }
        let types = state.types(scanner: scanner)
        guard types.contains(type) else {
            throw JarvisError(
                .typeMismatch,
                "\(container) cannot store \(type.rawValue); choose one of: \(types.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return ValueDraft(
            address: address, type: type, text: ValueDraft.initialText(for: type), expectedRevision: .absent,
            isNew: true)
    }

    /// Sends a draft: checks the text against the type and the catalog first, then sets the
    /// value (a nested member with a pointer edit), sending the revision the draft was read at.
    /// - Returns: ``SaveOutcome/saved(_:)``, or ``SaveOutcome/conflict(_:)`` with the value as
    ///   it is now when someone else changed it.
    /// - Throws: ``JarvisError`` for text the type or catalog refuses (nothing is sent) and for
    ///   the agent's refusals, with its message.
    /// - Parameter confirmed: the user answered yes to ``ValueDraft/confirmation``; a draft
    ///   that asks one is refused (`.invalidParams`, nothing sent) without it.
    public func save(_ draft: ValueDraft, text: String, confirmed: Bool = false) throws(JarvisError) -> SaveOutcome {
        let value = try check(draft, text: text)
        if let question = draft.confirmation, !confirmed {
            throw JarvisError(.invalidParams, "not saved: confirm first: \(question)")
        }
        let place = Wire.Place(draft.address, pointer: draft.pointer.isWhole ? nil : draft.pointer)
        do {
            let stored = try source.call(
                Wire.SetParams(place, value: value, expectedRevision: draft.expectedRevision),
                expecting: Wire.ItemResult.self
            ).item
            let whole = stored.pointer == nil ? stored : try fetch(draft.address)
            if let whole { try store(whole) }
            var answer = whole ?? stored
            answer.notes = stored.notes
            return .saved(answer)
        } catch  where error.code == .conflict {
            return .conflict(try refresh(draft.address))
        }
    }

    /// The same draft at the key's revision now, for after a conflict: the user has seen
    /// the other writer's value in the conflict message, and saving this overwrites it.
    public func redraft(_ draft: ValueDraft) -> ValueDraft {
        var again = draft
        if let item = state.items[draft.address], !InspectorState.isUnset(item) {
            again.expectedRevision = item.revision
        } else {
            again.expectedRevision = .absent
        }
        return again
    }

    /// What ``save(_:text:confirmed:)`` would send, without sending it: a face calls it
    /// before asking a draft's ``ValueDraft/confirmation``, so the question is never asked
    /// about text that would be refused.
    /// - Throws: ``JarvisError`` for text the type or the catalog refuses, an empty
    ///   replacement of a secret, or an ordinary draft over a masked secret.
    public func check(_ draft: ValueDraft, text: String) throws(JarvisError) -> PreferenceValue {
        try Self.checkSecretReplacement(draft, text: text, state: state)
        return try draft.value(from: text)
    }

    /// Deletes a key, or a member inside its value, sending the revision it was read at.
    /// - Returns: nil when deleted; the key as it is now when someone else changed it first.
    /// - Throws: ``JarvisError`` with the agent's refusal.
    @discardableResult
    public func delete(_ target: InspectorRow.Target) throws(JarvisError) -> PreferenceItem? {
        let state = self.state
        guard let address = target.address, let item = state.items[address] else {
            throw JarvisError(.notFound, "choose a key or a value inside one")
        }
        try Self.checkEditable(state, item)
        let pointer = target.pointer
        do {
            _ = try source.call(
                Wire.DeleteParams(
                    Wire.Place(address, pointer: pointer.isWhole ? nil : pointer), expectedRevision: item.revision),
                expecting: Wire.ItemResult.self)
        } catch  where error.code == .conflict {
            return try refresh(address)
        }
        _ = try refresh(address)
        return nil
    }

    /// The stored keys of a container a glob matches, without deleting them: what a bulk
    /// delete would remove, for the user to confirm.
    public func deletePreview(scanner: String, container: String, matching glob: String) throws(JarvisError) -> [String]
    {
        try bulkDelete(scanner: scanner, container: container, matching: glob, dryRun: true)
    }

    /// Deletes every stored key of a container a glob matches; returns their names.
    @discardableResult
    public func delete(scanner: String, container: String, matching glob: String) throws(JarvisError) -> [String] {
        try bulkDelete(scanner: scanner, container: container, matching: glob, dryRun: false)
    }

    private func bulkDelete(scanner: String, container: String, matching glob: String, dryRun: Bool)
        throws(JarvisError) -> [String]
    {
        let state = self.state
        if !dryRun, !state.canEdit { throw Self.readOnly(state) }
        let result = try source.call(
            Wire.BulkDeleteParams(scanner: scanner, container: container, match: glob, dryRun: dryRun),
            expecting: Wire.BulkDeleteResult.self)
        if !dryRun {
            for key in result.keys {
                _ = try refresh(PreferenceAddress(scanner: scanner, container: container, key: key))
            }
        }
        return result.keys
    }

    /// Deletes exactly the keys of a previewed ``InspectorDeletion``, each at the revision it
    /// was shown at: a key changed since is kept and reported, never deleted unseen.
    /// - Throws: ``JarvisError`` `.readOnly` when the agent allows no edits; the agent's other
    ///   refusals are reported per key in the outcome.
    public func delete(_ deletion: InspectorDeletion) throws(JarvisError) -> InspectorDeletion.Outcome {
        let state = self.state
        guard state.canEdit else { throw Self.readOnly(state) }
        var outcome = InspectorDeletion.Outcome()
        // One change in the agent's journal, where it takes one: one undo puts every key back.
        let change = Wire.ChangeParams(change: source.hello.capabilities.changes ? "delete-\(UUID().uuidString)" : nil)
        for entry in deletion.entries {
            do {
                var params = Wire.DeleteParams(Wire.Place(entry.address), expectedRevision: entry.revision)
                params.change = change
                _ = try source.call(params, expecting: Wire.ItemResult.self)
                outcome.deleted.append(entry.address)
            } catch  where error.code == .conflict {
                outcome.changed.append(entry.address)
            } catch  where error.code == .unavailable {
                throw error
            } catch {
                outcome.refused[entry.address.key] = error.message
            }
            _ = try? refresh(entry.address)
        }
        return outcome
    }

    /// Removes what is stored so the catalog's or registered default applies again.
    /// - Returns: the key now (its default, or an unset catalog item); nil when nothing remains.
    @discardableResult
    public func reset(_ address: PreferenceAddress) throws(JarvisError) -> PreferenceItem? {
        let state = self.state
        guard let item = state.items[address] else { throw JarvisError(.notFound, "\(address.key) no longer exists") }
        try Self.checkEditable(state, item)
        let result = try source.call(
            Wire.ResetParams(Wire.Place(address), expectedRevision: item.revision), expecting: Wire.ResetResult.self)
        try update { (state: inout InspectorState) throws(JarvisError) in
            if let now = result.item { state.store(now) } else { state.removeStored(address) }
        }
        return result.item
    }

    // MARK: - Helpers

    /// Reads one key again and stores it (or forgets it when gone).
    func refresh(_ address: PreferenceAddress) throws(JarvisError) -> PreferenceItem? {
        let now = try fetch(address)
        try update { (state: inout InspectorState) throws(JarvisError) in
            if let now { state.store(now) } else { state.removeStored(address) }
        }
        return state.items[address]
    }

    private func fetch(_ address: PreferenceAddress) throws(JarvisError) -> PreferenceItem? {
        do {
            return try source.call(Wire.GetParams(Wire.Place(address)), expecting: Wire.ItemResult.self).item
        } catch  where error.code == .notFound {
            return nil
        }
    }

    private func store(_ item: PreferenceItem) throws(JarvisError) {
        try update { (state: inout InspectorState) throws(JarvisError) in state.store(item) }
    }

    static func draft(_ address: PreferenceAddress, _ pointer: JSONPointer, value: PreferenceValue, revision: Revision)
        -> ValueDraft
    {
        let plain = (try? value.plainJSON()) != nil
        return ValueDraft(
            address: address, pointer: pointer, type: value.type,
            text: plain || !(value.type == .array || value.type == .dictionary)
                ? ValueFormat.editText(value) : JSONWriter.string(value.json, pretty: true),
            expectedRevision: revision, usesWireEncoding: !plain && (value.type == .array || value.type == .dictionary))
    }

    /// The most text an editor is given: larger values are opened a level at a time and
    /// their members edited, or set whole with `jarvis set`.
    public static let maxDraftCharacters = 256 * 1024

    static func checkEditableSize(_ value: PreferenceValue, _ name: String) throws(JarvisError) {
        let tooLarge: Bool
        switch value {
        case .data(let data): tooLarge = (data.count + 2) / 3 * 4 > maxDraftCharacters
        case .string(let text): tooLarge = text.utf8.count > maxDraftCharacters
        case .array, .dictionary:
            tooLarge = ValueFormat.full(value, limit: maxDraftCharacters).hasSuffix("characters)")
        default: tooLarge = false
        }
        guard tooLarge else { return }
        throw JarvisError(
            .tooLarge,
            "\(name) is too large to edit here (over \(maxDraftCharacters / 1024) KiB as text); open its members and edit them, or set it whole with `jarvis set`"
        )
    }

    /// What editing a masked secret says instead of opening an empty field.
    static func maskedRefusal(_ item: PreferenceItem, canReveal: Bool) -> JarvisError {
        JarvisError(
            .invalidParams,
            canReveal
                ? "\(item.address.key) is a masked secret: reveal it to edit its value, or replace it with a new one"
                : "\(item.address.key) is a masked secret: replace it with a new one (this agent does not allow revealing)"
        )
    }

    /// A masked secret is written only by a confirmed, non-empty replacement: never by an
    /// ordinary draft (the field would have been empty, not the secret).
    static func checkSecretReplacement(_ draft: ValueDraft, text: String, state: InspectorState) throws(JarvisError) {
        if draft.replacesSecret {
            guard !text.isEmpty else {
                throw JarvisError(
                    .typeMismatch, "type the new secret: an empty value is never saved over a secret")
            }
        } else if !draft.isNew, let item = state.shown(draft.address), item.isMasked, item.value == nil {
            throw maskedRefusal(item, canReveal: state.canReveal)
        }
    }

    static func checkEditable(_ state: InspectorState, _ item: PreferenceItem) throws(JarvisError) {
        guard state.canEdit else { throw readOnly(state) }
        guard item.isWritable else {
            throw JarvisError(.readOnly, "\(item.address.key) is read-only here")
        }
        guard !item.isPlaceholder else {
            throw JarvisError(
                .readOnly, "\(item.address.key) stands in for a value Jarvis cannot show exactly; edit the file")
        }
    }

    /// Why nothing may be edited in this agent, for a status line or a banner.
    public static func readOnlyMessage(_ state: InspectorState) -> String { readOnly(state).message }

    static func readOnly(_ state: InspectorState) -> JarvisError {
        if state.isGone {
            return JarvisError(.unavailable, InspectorMessage.waitingForAgent.text)
        }
        return JarvisError(
            .readOnly,
            state.isProduction
                ? "READ-ONLY: this agent runs the production configuration, which allows no edits"
                : "READ-ONLY: this agent does not allow editing")
    }
}
