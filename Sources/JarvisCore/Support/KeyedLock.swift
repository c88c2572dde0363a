/// One lock per key, made when first needed and dropped once nobody holds or waits for it.
///
/// The hub orders writes with it, keyed by scanner and container: two writes to the same
/// container run one after the other, while a write to another container never waits for
/// them, however long their file system, Keychain or subprocess calls take.
package final class KeyedLock: Sendable {
    private final class Entry: Sendable {
        let lock = Locked<Void>(())
    }

    private let table = Locked<[String: (entry: Entry, users: Int)]>([:])

    package init() {}

    /// Runs `body` while holding the lock of `key`.
    /// - Throws: exactly what `body` throws.
    package func withLock<Result, Failure: Error>(_ key: String, _ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let entry = table.withLock { table -> Entry in
            if let found = table[key] {
                table[key] = (found.entry, found.users + 1)
                return found.entry
            }
            let made = Entry()
            table[key] = (made, 1)
            return made
        }
        defer {
            table.withLock { table in
                guard let found = table[key] else { return }
                table[key] = found.users <= 1 ? nil : (found.entry, found.users - 1)
            }
        }
        return try entry.lock.withLock { (_: inout Void) throws(Failure) -> Result in try body() }
    }

    /// Whether somebody holds or waits for the lock of `key` now.
    package func isBusy(_ key: String) -> Bool {
        table.withLock { $0[key] != nil }
    }

    /// How many keys have a lock now (held or waited for): for tests.
    package var count: Int { table.withLock { $0.count } }
}
