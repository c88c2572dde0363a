import Foundation

/// A value guarded by one lock: the single place mutable shared state lives in Jarvis.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18, newer than the package's minimum, so
/// this wraps `NSLock`, which exists on every platform Jarvis supports.
package final class Locked<Value>: @unchecked Sendable {
    // `value` is only touched while `lock` is held.
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    package var current: Value {
        withLock { $0 }
    }
}
