import Foundation
import JarvisCore
import JarvisRemote

/// One change in a key's timeline, as every face shows it (the browser's detail, the terminal's
/// timeline page, the panel's history): what happened, who did it, the value before and after,
/// and whether Revert can take it back.
///
/// Built from the agent's journal (``InspectorSession/timeline(of:)``); the decisions — the
/// words, the masking of a secret's values, whether Revert is offered, hidden characters shown
/// as escapes (``VisibleText``) — are made here once.
public struct InspectorTimelineEntry: Sendable, Hashable, Identifiable {
    /// The journal entry's id: what Revert takes back (`jarvis undo ID`).
    public let id: Int64
    /// When the change was made.
    public let time: Date
    /// What happened, in words: `set`, `deleted`, `reset`, `changed outside`, `undo of #7`…
    public let what: String
    /// Who made it: the client's name and transport (`jarvis-cli (unix)`), or `outside` for
    /// the program itself or another process.
    public let who: String
    /// The member a nested edit changed (`/server/port`); nil for the whole value.
    public let pointer: String?
    /// The value before, as a short preview (text in quotes); `(absent)` when nothing was stored, `••••` for a
    /// secret's (its values never leave the agent).
    public let before: String
    /// The value after, shown as ``before``.
    public let after: String
    /// Whether Revert is offered: the agent can still take this entry back and allows editing.
    public let canRevert: Bool
    /// Why it cannot be taken back, or by which entry it was (`undone by #9`); nil while it can.
    public let state: String?
    /// Whether Revert of this entry is a redo (the entry is itself an undo).
    public let revertIsRedo: Bool

    /// The entry as a face shows it.
    /// - Parameters:
    ///   - canEdit: whether the agent allows editing (Revert is a write).
    ///   - previewLimit: how many characters of each value a line shows.
    public init(_ entry: Wire.JournalEntry, canEdit: Bool, previewLimit: Int = 40) {
        id = entry.id
        time = entry.time
        pointer = entry.pointer.map(VisibleText.escaped)
        who = entry.transport.map { transport in
            entry.client.map { "\(VisibleText.escaped($0)) (\(VisibleText.escaped(transport)))" }
                ?? VisibleText.escaped(transport)
        } ?? "outside"
        switch entry.action {
        case "set": what = entry.before == nil ? "created" : "set"
        case "delete": what = "deleted"
        case "reset": what = "reset"
        case "outside": what = "changed outside"
        case "undo": what = entry.reverts.map { "undo of #\($0)" } ?? "undo"
        case "redo": what = entry.reverts.map { "redo of #\($0)" } ?? "redo"
        case "restore": what = "restored"
        default: what = entry.action
        }
        before = Self.preview(entry.before, limit: previewLimit)
        after = Self.preview(entry.after, limit: previewLimit)
        revertIsRedo = entry.action == "undo"
        canRevert = canEdit && entry.undoable
        if let by = entry.undoneBy {
            state = "undone by #\(by)"
        } else if !entry.undoable {
            state = entry.reason ?? "can no longer be taken back"
        } else if !canEdit {
            state = "read-only agent"
        } else {
            state = nil
        }
    }

    /// Who made it, as a line says it after what happened: ` by jarvis-cli (unix)`, or nothing
    /// for an outside change (`changed outside` says who).
    public var byline: String { who == "outside" ? "" : " by \(who)" }

    /// Revert's label: `Revert` for a change, `Redo` for an undo.
    public var revertLabel: String { revertIsRedo ? "Redo" : "Revert" }

    /// One line: `#7  set by jarvis-cli (unix): "dark" → "light"`.
    public var summary: String {
        let place = pointer.map { " \($0)" } ?? ""
        return "#\(id)  \(what)\(place)\(byline): \(before) → \(after)"
    }

    /// A journal value as a line shows it.
    static func preview(_ value: Wire.JournalValue?, limit: Int) -> String {
        guard let value else { return "(absent)" }
        if let bytes = value.bytes { return "(\(bytes / 1000) KB \(value.type.rawValue))" }
        guard let shown = value.value else { return "•••• (\(value.type.rawValue))" }
        // Text is quoted, so that it never reads as `(absent)` or a number.
        if case .string = shown { return "\"" + ValueFormat.preview(shown, limit: max(2, limit - 2)) + "\"" }
        return ValueFormat.preview(shown, limit: limit)
    }
}
