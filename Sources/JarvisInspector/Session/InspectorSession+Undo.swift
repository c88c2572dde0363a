import JarvisCore
import JarvisRemote

/// Undo and redo from an interactive face: the agent's journal decides what is taken back, as
/// `jarvis undo` does; the session reads the key again and says what happened.
extension InspectorSession {
    /// Takes back the newest change still standing (or, with `redo`, the newest undo), by
    /// the agent's guarded write, and reads the key again.
    /// - Returns: what a face shows: which entry went back to what, and the key that undoes it.
    /// - Throws: ``JarvisError`` `.readOnly` when the agent allows no editing, `.conflict` when
    ///   the key changed since (nothing written; the message shows both values), `.notFound`
    ///   when nothing is left to take back.
    public func undo(redo: Bool = false) throws(JarvisError) -> InspectorMessage {
        let state = self.state
        guard state.canEdit else { throw JarvisError(.readOnly, Self.readOnlyMessage(state)) }
        let result =
            redo
            ? try source.call(Wire.RedoParams(), expecting: Wire.UndoResult.self)
            : try source.call(Wire.UndoParams(), expecting: Wire.UndoResult.self)
        let entry = result.undone
        _ = try refresh(entry.address)
        return InspectorMessage.undone(result, redo: redo)
    }
}

extension InspectorMessage {
    /// What an undo or redo did: `undid #7: theme back to "dark" (Z redoes)`.
    public static func undone(_ result: Wire.UndoResult, redo: Bool) -> InspectorMessage {
        let entry = result.undone
        let name = entry.address.key + (entry.pointer ?? "")
        let value: String
        if let restore = result.restore {
            value = restore.value.map { "back to " + ValueFormat.preview($0, limit: 40) } ?? "back to its earlier value"
        } else {
            value = "removed again"
        }
        return InspectorMessage(
            "\(redo ? "redid" : "undid") #\(entry.id): \(name) \(value) (\(redo ? "z undoes" : "Z redoes"))",
            offer: redo ? .undo : .redo)
    }
}
