/// Where a ``ChangeJournal`` keeps its entries across restarts (the agent's journal file).
///
/// Implementers never keep a secret's values (``JournalEntry/isSecret``): they write its
/// address, revisions and who, and read it back with ``JournalEntry/valuesKept`` false. They
/// bound what they hold in bytes themselves, dropping the oldest entries first.
package protocol JournalStore: Sendable {
    /// Adds entries after those stored, in one write. May be called from any thread, and
    /// calls may overlap: implementations serialize their own I/O.
    /// - Parameter keeping: the journal's entries now, oldest first, for a store that must
    ///   rewrite itself to stay within its budget.
    /// - Returns: nil, or why the store stopped keeping entries (a file found to be a link or
    ///   another user's): the journal then goes on in memory only and shows the problem.
    func append(_ entries: [JournalEntry], keeping: () -> [JournalEntry]) -> String?
}
