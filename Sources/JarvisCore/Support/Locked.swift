import Foundation

/// A value guarded by one lock: the single place mutable shared state lives in Jarvis, and
/// the way a host's own scanner keeps its state without `@unchecked Sendable`.
///
/// ```swift
/// final class FlagsScanner: PreferenceScanner {   // Sendable: every stored property is
///     let id = "flags"
///     private let flags = Locked<[String: Bool]>([:])
///     func read(_ request: ReadRequest) throws -> [ScannedEntry] {
///         flags.current.map { ScannedEntry(key: $0.key, value: .boolean($0.value)) }
///     }
/// }
/// ```
///
/// `withLock` keeps the body's error type (typed throws), so a body that throws
/// ``JarvisError`` makes `withLock` throw ``JarvisError`` and a body that cannot throw makes
/// it non-throwing: no wrappers or casts around it.
///
/// The box is `Sendable` only when its value is (as `Synchronization.Mutex` and NIO's
/// `NIOLockedValueBox`), and a value goes in and comes out as `sending`: the compiler refuses
/// a body that would let a reference to a non-Sendable value escape the lock.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18, newer than the package's minimum, so
/// this wraps the system's own lock (``PlatformLock``: `os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere), which every platform Jarvis supports has. The lock is not
/// recursive: calling `withLock` on the same box from inside its body deadlocks.
public final class Locked<Value> {
    // `value` is only touched while `lock` is held; `nonisolated(unsafe)` because the lock,
    // not the compiler, keeps it apart, and `withLock` hands it on only as `sending`.
    // `@exclusivity(unchecked)`: the run-time exclusivity check a class's `var` costs on
    // every `inout` access (a dozen and more locks per request on the agent's hot path)
    // guards what the lock already guarantees.
    // `@usableFromInline` so that `withLock` is specialised and inlined in the modules that
    // call it: an unspecialised generic call copied its result through the runtime.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var value: Value
    @usableFromInline let lock = PlatformLock()

    /// A box holding `value`.
    public init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    /// - Throws: exactly what `body` throws, with its type.
    @discardableResult @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

}

// The lock guards `value`, so the box may cross threads when its value may.
extension Locked: @unchecked Sendable where Value: Sendable {}

extension Locked where Value: Sendable {
    /// A copy of the current value.
    @inlinable public var current: Value {
        withLock { $0 }
    }
}
