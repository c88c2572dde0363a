import JarvisCore

/// A save that met a newer value: the value the user started from, theirs (stored now) and
/// the user's own text, for a face to show side by side while the draft is kept.
///
/// Keeping theirs drops the draft (``keptTheirs``); writing the user's own saves
/// ``InspectorSession/redraft(_:)`` of the draft, at the revision stored now.
public struct InspectorConflict: Sendable, Hashable {
    /// The place, as the draft names it (`server/port`).
    public var title: String
    /// The heading: what happened.
    public var heading: String
    /// The text the draft started from.
    public var base: String
    /// What is stored now, as editor text; or that it was removed, or cannot be shown.
    public var theirs: String
    /// What the user typed.
    public var yours: String
    /// The sentence for a status line.
    public var message: InspectorMessage

    /// The label above ``base``.
    public static let baseLabel = "You started from"
    /// The label above ``theirs``.
    public static let theirsLabel = "Theirs (stored now)"
    /// The label above ``yours``.
    public static let yoursLabel = "Yours"
    /// The action that drops the draft and keeps what is stored (``keptTheirs(_:)``).
    public static let keepTheirsTitle = "Keep theirs"
    /// The action that writes the draft over what is stored, at the revision stored now.
    public static let writeMineTitle = "Write mine"

    /// The conflict of `draft`, with `yours` typed, and the key as it is now (nil: removed).
    public init(draft: ValueDraft, yours: String, now: PreferenceItem?) {
        title = draft.title
        heading = "\(draft.title) changed while you edited it"
        base = draft.replacesSecret ? "(the secret, not shown)" : draft.text
        if let now, !InspectorState.isUnset(now), let value = now.value {
            theirs = (try? draft.pointer.value(in: value)).map(ValueFormat.editText) ?? "(\(draft.title) no longer exists)"
        } else if let now, now.isMasked {
            theirs = "(a new secret, not shown)"
        } else if let now, InspectorState.isUnset(now) {
            theirs = InspectorState.preview(now, limit: 80)
        } else {
            theirs = "(the key was removed)"
        }
        self.yours = draft.replacesSecret ? "(your new secret, not shown)" : yours
        message = InspectorSession.SaveOutcome.conflict(now).message(draft)
    }

    /// What a face says when the user keeps their value: the draft is dropped, nothing written.
    public static func keptTheirs(_ draft: ValueDraft) -> InspectorMessage {
        InspectorMessage("kept their value of \(draft.title); your edit was not written")
    }
}
