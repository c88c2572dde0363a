import JarvisCore

/// The iCloud key-value store's documented limits, checked before a write reaches the store:
/// a key that is too long raises an Objective-C exception (ending the host process), and a
/// write over the quota is dropped by the system, which says so only later, in a
/// `didChangeExternallyNotification` with `NSUbiquitousKeyValueStoreQuotaViolationChange`.
/// Kept apart from the Apple-only scanner so that the rules are tested on every platform.
enum UbiquitousKeyValueLimits {
    /// The longest key the store accepts, in bytes of UTF-8.
    static let maxKeyBytes = 64
    /// The most keys the store holds.
    static let maxKeys = 1024
    /// The most bytes the store holds for all values together, and for one value.
    static let maxBytes = 1 << 20

    /// - Throws: ``JarvisError`` `.invalidParams` for an empty key or one over ``maxKeyBytes``.
    static func check(key: String) throws(JarvisError) {
        let length = key.utf8.count
        guard length > 0, length <= maxKeyBytes else {
            throw JarvisError(
                .invalidParams,
                "iCloud key-value store keys are 1 to \(maxKeyBytes) bytes of UTF-8; this one has \(length)")
        }
    }

    /// Whether storing a value of `size` bytes under `key` stays within the store's quota.
    /// - Parameters:
    ///   - size: the new value's size in bytes (as a binary property list).
    ///   - sizes: every stored key's value size now.
    /// - Throws: ``JarvisError`` `.storage` naming the limit the write would pass; nothing is
    ///   written then.
    static func checkQuota(key: String, size: Int, sizes: [String: Int]) throws(JarvisError) {
        let suffix = "; nothing was written (remove keys from the iCloud key-value store to make room)"
        guard size <= maxBytes else {
            throw JarvisError(
                .storage, "'\(key)': a value of \(size) bytes is over the iCloud key-value store's 1 MB per value\(suffix)")
        }
        if sizes[key] == nil, sizes.count >= maxKeys {
            throw JarvisError(
                .storage, "'\(key)': the iCloud key-value store already holds its most keys, \(maxKeys)\(suffix)")
        }
        let total = sizes.reduce(size) { $0 + ($1.key == key ? 0 : $1.value) }
        guard total <= maxBytes else {
            throw JarvisError(
                .storage,
                "'\(key)': the iCloud key-value store would hold \(total) bytes, over its 1 MB quota\(suffix)")
        }
    }
}

/// What the iCloud scanner has learnt from the system about its store: whether it was
/// synchronized once (Apple asks for `synchronize()` at launch, not before every read), and
/// quota violations the system reported after a write.
final class UbiquitousKeyValueReports: Sendable {
    private struct State {
        var synchronized = false
        var violations = 0
    }
    private let state = Locked(State())

    /// True the first time only: the one read that synchronizes the store.
    func shouldSynchronizeBeforeRead() -> Bool {
        state.withLock { state in
            defer { state.synchronized = true }
            return !state.synchronized
        }
    }

    /// The system said a write went over the quota (`NSUbiquitousKeyValueStoreQuotaViolationChange`).
    func noteQuotaViolation() {
        state.withLock { $0.violations += 1 }
    }

    /// Quota violations reported so far, to compare before and after a write.
    var quotaViolations: Int { state.withLock { $0.violations } }

    /// - Throws: ``JarvisError`` `.storage` when the system reported a violation since `before`
    ///   (a count from ``quotaViolations``): the write was not kept, whatever a read-back shows.
    func checkNoViolation(since before: Int, key: String) throws(JarvisError) {
        guard quotaViolations > before else { return }
        throw JarvisError(
            .storage,
            "'\(key)': iCloud refused the write as over the key-value store's quota (1 MB, 1024 keys); remove keys to make room"
        )
    }
}
