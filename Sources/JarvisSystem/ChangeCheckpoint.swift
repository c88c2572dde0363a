#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The point in a readiness loop's turn after which the file system's pending change
/// notifications have been read: a loop reads every ready request first, passes the
/// checkpoint (``passed()``: one read of each ``FolderChanges``), then answers; every request
/// it answers was sent before the checkpoint, so every change made before it was sent has
/// been heard. Until the thread reads requests again (``readingInput()``),
/// ``FolderChanges/generation()`` on that thread trusts the checkpoint instead of asking the
/// kernel again: one system call per turn, shared by every request of the turn, where there
/// was one per request.
///
/// The state is per thread (a `pthread` key): any other thread (a host's own calls into the
/// hub) still reads the changes on every call.
package struct ChangeCheckpoint: Sendable, Hashable {
    /// Whether the pending change notifications were read after the request being answered.
    package let isPassed: Bool

    /// No checkpoint stands: ask the kernel.
    package static let none = ChangeCheckpoint(isPassed: false)

    /// What this thread's mark says.
    package static var onThisThread: ChangeCheckpoint { ChangeCheckpoint(isPassed: isPassedOnThisThread) }

    /// The key whose value is non-nil on a thread that passed the checkpoint since its last read.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Any non-nil value: the key holds a mark, not data.
    private static var mark: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }

    /// Call before reading requests on this thread: what is read next may follow a change
    /// not yet heard.
    package static func readingInput() {
        pthread_setspecific(key, nil)
    }

    /// Reads every folder's pending changes and marks this thread as having done so since
    /// its last read of requests.
    package static func passed() {
        FolderChanges.drainAll()
        pthread_setspecific(key, mark)
    }

    /// Whether this thread passed the checkpoint after its last read of requests.
    static var isPassedOnThisThread: Bool {
        pthread_getspecific(key) != nil
    }
}
