import JarvisCore

/// The journal, undo and redo, as ``JarvisClient`` has them.
extension AsyncJarvisClient {
    /// The newest journal entries matching `params`, oldest first.
    public func journal(_ params: Wire.JournalParams = Wire.JournalParams()) async throws(JarvisError)
        -> Wire.JournalPage
    {
        try await run { client throws(JarvisError) in try client.journal(params) }
    }

    /// Takes back one journal entry by a guarded forward write (see ``JarvisClient/undo(_:dryRun:forceAt:)``).
    public func undo(_ id: Int64? = nil, dryRun: Bool = false, forceAt: String? = nil) async throws(JarvisError)
        -> Wire.UndoResult
    {
        try await run { client throws(JarvisError) in try client.undo(id, dryRun: dryRun, forceAt: forceAt) }
    }

    /// Takes back an undo (see ``JarvisClient/redo(_:dryRun:forceAt:)``).
    public func redo(_ id: Int64? = nil, dryRun: Bool = false, forceAt: String? = nil) async throws(JarvisError)
        -> Wire.UndoResult
    {
        try await run { client throws(JarvisError) in try client.redo(id, dryRun: dryRun, forceAt: forceAt) }
    }

    /// Puts every key changed since a moment back (see ``JarvisClient/restore(_:)``).
    public func restore(_ params: Wire.RestoreParams) async throws(JarvisError) -> Wire.RestoreResult {
        try await run { client throws(JarvisError) in try client.restore(params) }
    }
}
