import Foundation

/// Lets one thread at a time parse a given file: a reader that finds another parsing the same
/// path waits for that parse and then finds it in the cache, so ten clients that list one
/// large file at once cost one parse, not ten copies held side by side while they wait for
/// their clients to read.
///
/// Nothing is held locked while a file is read: a parse runs outside the lock, and waiters
/// sleep on the condition. Thread-safe.
final class ParseOnce: @unchecked Sendable {
    /// Guards `busy`.
    private let condition = NSCondition()
    /// The paths being parsed now.
    private var busy: Set<String> = []

    /// Runs `body` once no other thread runs one for `path`, and returns what it returned.
    func run<Result>(_ path: String, _ body: () -> Result) -> Result {
        condition.lock()
        while busy.contains(path) { condition.wait() }
        busy.insert(path)
        condition.unlock()
        defer {
            condition.lock()
            busy.remove(path)
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}
