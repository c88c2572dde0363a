#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system's plain lock, without `NSLock`'s class dispatch: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere. The one place that choice is made; ``Locked``
/// is built on it (and the few types that guard several members with one lock), inlined where it is used (a generic call per lock cost more than the lock).
/// Not recursive. The lock lives at a fixed address of its own, as both
/// kinds require.
@usableFromInline
package final class PlatformLock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let unfair: UnsafeMutablePointer<os_unfair_lock>

        @usableFromInline
        package init() {
            unfair = .allocate(capacity: 1)
            unfair.initialize(to: os_unfair_lock())
        }

        deinit {
            unfair.deinitialize(count: 1)
            unfair.deallocate()
        }

        @inlinable @inline(__always)
        package func lock() { os_unfair_lock_lock(unfair) }

        @inlinable @inline(__always)
        package func unlock() { os_unfair_lock_unlock(unfair) }
    #else
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

        @usableFromInline
        package init() {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        @inlinable @inline(__always)
        package func lock() { pthread_mutex_lock(mutex) }

        @inlinable @inline(__always)
        package func unlock() { pthread_mutex_unlock(mutex) }
    #endif
}
