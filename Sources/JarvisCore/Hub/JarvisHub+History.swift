/// What the journal shows: the entries of keys the configuration shows now, each a secret's
/// exactly when its scanner keeps secrets, whatever the entry (or the file it came from) says.
///
/// Every answer made of journal entries (the `journal` method, undo, redo, restore, their dry
/// runs and conflicts) takes its entries from here, so a key or container hidden today shows
/// no value, old or new, is never taken back, and is refused as a name never seen.
extension JarvisHub {
    /// The journal's entries the configuration shows now, oldest first (see the extension).
    package func shownJournal() -> [JournalEntry] {
        var shown = ShownEntries(hub: self)
        return journal.entries().compactMap { shown.entry($0) }
    }

    /// The entry with this id when the configuration shows it now; nil when the journal does not
    /// hold it or hides it, alike.
    package func shownEntry(_ id: Int64) -> JournalEntry? {
        var shown = ShownEntries(hub: self)
        return journal.entry(id).flatMap { shown.entry($0) }
    }

    /// Entries read back from a journal file, with whether each is a secret's decided by its
    /// scanner: a secret's entry keeps no values (a file never holds them, so values a file
    /// gives one were planted), and so it is never taken for a value changed since.
    package func trusted(_ entries: [JournalEntry]) -> [JournalEntry] {
        var secret: [String: Bool] = [:]
        return entries.map { entry in
            let isSecret =
                secret[entry.address.scanner]
                ?? {
                    let found = visibility(of: entry.address.scanner)?.scanner.info.isSecret ?? entry.isSecret
                    secret[entry.address.scanner] = found
                    return found
                }()
            guard isSecret else { return entry }
            var entry = entry
            entry.isSecret = true
            entry.valuesKept = false
            entry.before = nil
            entry.after = nil
            entry.undoHint = nil
            return entry
        }
    }
}
