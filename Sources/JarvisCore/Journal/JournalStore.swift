/// Where a ``ChangeJournal`` keeps its entries across restarts (the agent's journal file).
///
/// Implementers never keep a secret's values (``JournalEntry/isSecret``): they write its
/// address, revisions and who, and read it back with ``JournalEntry/valuesKept`` false. They
/// bound what they hold in bytes themselves, dropping the oldest entries first.
package protocol JournalStore: Sendable {
    /// Adds one entry after those stored. May be called from any thread, one call at a time
    /// per journal is not promised: implementations serialize their own I/O.
    /// - Parameter keeping: the journal's entries now, oldest first, for a store that must
    ///   rewrite itself to stay within its budget.
    func append(_ entry: JournalEntry, keeping: () -> [JournalEntry])
}
