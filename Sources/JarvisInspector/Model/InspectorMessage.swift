import JarvisCore

/// A sentence a face shows after an action or a change (a status line, a banner, a toast),
/// written once here so every face says the same thing.
public struct InspectorMessage: Sendable, Hashable {
    /// How a face styles it.
    public enum Kind: String, Sendable, Hashable {
        /// What happened, as asked.
        case info
        /// Worth reading: a note from the storage, nothing done, a change from elsewhere.
        case warning
        /// Refused or failed: nothing was written.
        case error
    }

    /// The text, plain (a face escapes it for its medium).
    public var text: String
    /// How to style it.
    public var kind: Kind
    /// What a face offers beside it, as a button or a key: taking back the change it tells
    /// of (after Save, Delete, Toggle, Delete filtered…), or putting back what an undo took.
    public var offer: Offer?

    /// An action offered beside a message.
    public enum Offer: String, Sendable, Hashable {
        /// Take the change back (`undo`; `z` in the terminal).
        case undo
        /// Put back what the undo took (`redo`; `Z` in the terminal).
        case redo

        /// What the terminal inspector, whose keys `z` and `Z` do it, says beside the message
        /// (`Z redoes`); a face with a button instead says nothing of keys.
        public var keyHint: String {
            switch self {
            case .undo: "z undoes"
            case .redo: "Z redoes"
            }
        }

        /// Its label on a button.
        public var label: String {
            switch self {
            case .undo: "Undo"
            case .redo: "Redo"
            }
        }
    }

    /// A message of `kind`.
    public init(_ text: String, _ kind: Kind = .info, offer: Offer? = nil) {
        self.text = text
        self.kind = kind
        self.offer = offer
    }

    /// This message, told after a change this face made, offering to take it back: a change
    /// that went through (not a refusal or a warning) on an agent that allows editing.
    public func offeringUndo(canEdit: Bool) -> InspectorMessage {
        var message = self
        message.offer = canEdit && kind == .info ? .undo : nil
        return message
    }

    /// A refusal or failure in the agent's words, after what was being done (`set refused`).
    public static func refused(_ action: String, _ error: JarvisError) -> InspectorMessage {
        InspectorMessage("\(action) refused: \(error.message)", .error)
    }

    /// Why a row offers no reset.
    public static func cannotReset(_ row: InspectorRow) -> InspectorMessage {
        if row.has(.unset) { return InspectorMessage("\(row.title) is unset already: its default applies", .warning) }
        if !row.isEditable && !row.isReplaceable {
            return InspectorMessage("\(row.title) cannot be changed here", .warning)
        }
        return InspectorMessage(
            "\(row.title) is not in the key catalog: there is no default to go back to; delete it instead", .warning)
    }

    /// After a delete of one key or member: done, or kept because someone else changed it.
    public static func deleted(_ target: InspectorRow.Target, now: PreferenceItem?) -> InspectorMessage {
        let address = target.address
        let name = (address?.key ?? "") + (target.pointer.isWhole ? "" : target.pointer.description)
        guard let now else { return InspectorMessage("deleted \(name)") }
        return InspectorMessage(
            "not deleted: someone else changed \(address?.key ?? name); it is now \(Self.now(now))", .error)
    }

    /// After a reset: the default that applies now.
    public static func reset(_ address: PreferenceAddress, now: PreferenceItem?) -> InspectorMessage {
        InspectorMessage(
            "reset \(address.key): " + (now.map { InspectorState.preview($0, limit: 60) } ?? "nothing is stored"))
    }

    /// Why a row offers no quick edit of `kind`.
    public static func noQuickEdit(_ kind: InspectorQuickEdit, _ row: InspectorRow) -> InspectorMessage {
        if row.quickEdit != nil || row.isEditable {
            return InspectorMessage(InspectorSession.noQuickEdit(kind, row.title), .warning)
        }
        return InspectorMessage("\(row.title) cannot be changed here", .warning)
    }

    /// Why nothing gains an element here.
    public static let noAppend = InspectorMessage(
        "a adds an element to an array: open one, or choose a row that holds one", .warning)

    /// The question before leaving an agent's last level, which disconnects.
    public static func leaveQuestion(agent: String, toAgentList: Bool) -> String {
        toAgentList ? "Disconnect from \(agent) and go back to the agent list?" : "Disconnect from \(agent) and quit?"
    }

    /// What a key is now, for a conflict: its value, or that it was removed.
    static func now(_ item: PreferenceItem?) -> String {
        item.map { InspectorState.preview($0, limit: 60) } ?? "removed"
    }
}

extension InspectorSession.SaveOutcome {
    /// What a face says after a save of `draft`: the place and its new value (the leaf's
    /// value after a nested edit), a note the storage made, or the conflict and the value now.
    public func message(_ draft: ValueDraft) -> InspectorMessage {
        switch self {
        case .saved(let item):
            if draft.replacesSecret {
                return InspectorMessage("replaced secret \(draft.title) (revision \(item.revision.text))")
            }
            // A note (a date the storage rounded) matters more than the confirmation.
            if let note = item.notes.first { return InspectorMessage("saved \(draft.title); note: \(note)", .warning) }
            let value = item.value.flatMap { try? draft.pointer.value(in: $0) }
            let shown = value.map { ValueFormat.preview($0, limit: 50) } ?? InspectorState.preview(item, limit: 50)
            return InspectorMessage("saved \(draft.title) = \(shown) (revision \(item.revision.text))")
        case .conflict(let current):
            return InspectorMessage(
                "not saved: someone else changed \(draft.address.key) since you read it; it is now \(InspectorMessage.now(current)). Your text is kept: save again to overwrite, or cancel to keep theirs",
                .error)
        }
    }
}
