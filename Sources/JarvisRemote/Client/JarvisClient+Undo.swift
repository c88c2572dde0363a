import JarvisCore

/// The journal, undo and redo (see `docs/PROTOCOL.md`).
extension JarvisClient {
    /// The newest journal entries matching `params`, oldest first: each change's values
    /// before and after (a secret's never sent), who made it and whether it can be undone.
    /// - Throws: ``JarvisError``; `.methodNotFound`-style errors from an agent older than the journal.
    public func journal(_ params: Wire.JournalParams = Wire.JournalParams()) throws(JarvisError) -> Wire.JournalPage {
        try call(params)
    }

    /// Takes back one journal entry by a guarded forward write (see `undo` in `docs/PROTOCOL.md`).
    /// - Parameters:
    ///   - id: the entry; nil takes the newest change still standing.
    ///   - dryRun: say what would be written, and write nothing.
    ///   - forceAt: write even though the key changed since, provided it is at this revision now.
    /// - Throws: ``JarvisError`` `.conflict` when the key changed since the entry (nothing was
    ///   written; the message shows both values and the revision to force at), `.readOnly`
    ///   where editing is off, `.notFound` for an entry no longer in the journal.
    public func undo(_ id: Int64? = nil, dryRun: Bool = false, forceAt: String? = nil) throws(JarvisError)
        -> Wire.UndoResult
    {
        try call(Wire.UndoParams(id: id, dryRun: dryRun, forceAt: forceAt))
    }

    /// Takes back the entry `params` choose: by id, or the newest change of a key, a container
    /// or this client's own (see `undo` in `docs/PROTOCOL.md`); with `redo`, an undo.
    /// - Throws: as ``undo(_:dryRun:forceAt:)``.
    public func undo(_ params: Wire.UndoParams, redo: Bool = false) throws(JarvisError) -> Wire.UndoResult {
        redo ? try call(Wire.RedoParams(params: params)) : try call(params)
    }

    /// Takes back an undo: puts back what it took (see ``undo(_:dryRun:forceAt:)``).
    /// - Parameter id: the undo's entry; nil takes the newest undo not yet taken back.
    public func redo(_ id: Int64? = nil, dryRun: Bool = false, forceAt: String? = nil) throws(JarvisError)
        -> Wire.UndoResult
    {
        try call(Wire.RedoParams(id: id, dryRun: dryRun, forceAt: forceAt))
    }

    /// Puts every key the journal saw change since a moment back as it was, as one change:
    /// if any write is refused, the keys already written are put back.
    /// - Throws: ``JarvisError`` `.readOnly` where editing is off, `.notFound` when the journal
    ///   does not reach back that far, `.unavailable` for a secret changed before a restart,
    ///   or the refused write's error.
    public func restore(_ params: Wire.RestoreParams) throws(JarvisError) -> Wire.RestoreResult {
        try call(params)
    }
}
