import Foundation

/// The `lstat`s of a served folder's plain names taken since its last change (a
/// ``FolderChanges`` generation): what a name looks like until the kernel tells of a change.
/// At most ``capacity`` names, each at most a file name long, so it stays a few hundred
/// kilobytes at worst.
struct QuietLooks: Sendable {
    /// The generation the looks were taken at.
    private var generation: UInt64 = .max
    private var found: [String: stat] = [:]

    /// The most names remembered; more are looked at every time until the next change.
    static let capacity = 256

    /// What `name` looked like at `generation`, if it was looked at then.
    mutating func status(of name: String, at generation: UInt64) -> stat? {
        guard generation == self.generation else {
            forget(at: generation)
            return nil
        }
        return found[name]
    }

    /// Remembers `status` as what `name` looks like at `generation`.
    mutating func remember(_ status: stat, of name: String, at generation: UInt64) {
        if generation != self.generation { forget(at: generation) }
        guard found.count < Self.capacity || found[name] != nil else { return }
        found[name] = status
    }

    private mutating func forget(at generation: UInt64) {
        self.generation = generation
        found.removeAll(keepingCapacity: true)
    }
}
