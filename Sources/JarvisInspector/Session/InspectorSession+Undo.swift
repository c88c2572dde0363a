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
            ? try source.call(Wire.RedoParams(params: Wire.UndoParams(mine: true)), expecting: Wire.UndoResult.self)
            : try source.call(Wire.UndoParams(mine: true), expecting: Wire.UndoResult.self)
        try refresh(after: result)
        return InspectorMessage.undone(result, redo: redo)
    }

    /// Reads again every key an undo or redo wrote (each of a change of several).
    private func refresh(after result: Wire.UndoResult) throws(JarvisError) {
        for entry in result.undoneGroup.isEmpty ? [result.undone] : result.undoneGroup {
            _ = try refresh(entry.address)
        }
    }
}

/// A key's timeline and Revert: the journal's entries for one key, each offered to take back.
extension InspectorSession {
    /// The most entries a timeline shows.
    public static let timelineLimit = 200

    /// The journal's entries for `address`, newest first: every change the agent made or heard
    /// to that key (a nested edit's too), each saying whether Revert can take it back.
    /// - Throws: ``JarvisError`` when the agent cannot be asked, or `.unsupported` from an
    ///   agent older than the journal.
    public func timeline(of address: PreferenceAddress) throws(JarvisError) -> [InspectorTimelineEntry] {
        let canEdit = state.canEdit
        let page = try source.call(
            Wire.JournalParams(
                limit: Self.timelineLimit, scanner: GlobPattern.literal(address.scanner).description,
                container: GlobPattern.literal(address.container).description,
                key: GlobPattern.literal(address.key).description),
            expecting: Wire.JournalPage.self)
        return page.entries.filter { $0.address == address }.reversed().map {
            InspectorTimelineEntry($0, canEdit: canEdit)
        }
    }

    /// Takes back one entry of a timeline by the agent's guarded write (`jarvis undo ID`; for
    /// an undo entry, `jarvis redo ID`), and reads the key again.
    /// - Throws: as ``undo(redo:)``: `.conflict` when the key changed since that entry (the
    ///   message shows the value it would restore and the value there now; nothing written).
    public func revert(_ entry: InspectorTimelineEntry) throws(JarvisError) -> InspectorMessage {
        let state = self.state
        guard state.canEdit else { throw JarvisError(.readOnly, Self.readOnlyMessage(state)) }
        let result =
            entry.revertIsRedo
            ? try source.call(Wire.RedoParams(id: entry.id), expecting: Wire.UndoResult.self)
            : try source.call(Wire.UndoParams(id: entry.id), expecting: Wire.UndoResult.self)
        try refresh(after: result)
        return InspectorMessage.undone(result, redo: entry.revertIsRedo)
    }
}

extension InspectorMessage {
    /// What an undo or redo did: `undid #7: theme back to "dark"`, offering the redo (or
    /// undo) that takes it back; a face with a key for it says which (``Offer/keyHint``).
    public static func undone(_ result: Wire.UndoResult, redo: Bool) -> InspectorMessage {
        let entry = result.undone
        let group = result.undoneGroup
        if group.count > 1 {
            let keys = Array(Set(group.map(\.address.key))).sorted()
            let named = keys.prefix(3).joined(separator: ", ") + (keys.count > 3 ? ", …" : "")
            return InspectorMessage(
                "\(redo ? "redid" : "undid") #\(group[0].group ?? group[0].id): \(group.count) keys as one change (\(named))",
                offer: redo ? .undo : .redo)
        }
        let name = entry.address.key + (entry.pointer ?? "")
        let value: String
        if let restore = result.restore {
            value = restore.value.map { "back to " + ValueFormat.preview($0, limit: 40) } ?? "back to its earlier value"
        } else {
            value = "removed again"
        }
        return InspectorMessage(
            "\(redo ? "redid" : "undid") #\(entry.id): \(name) \(value)",
            offer: redo ? .undo : .redo)
    }
}
