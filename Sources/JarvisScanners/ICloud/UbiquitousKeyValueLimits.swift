import JarvisCore

/// The iCloud key-value store's documented limits, checked before a write reaches the store,
/// which raises an Objective-C exception (ending the host process) for a key that is too long.
/// Kept apart from the Apple-only scanner so that the rule is tested on every platform.
enum UbiquitousKeyValueLimits {
    /// The longest key the store accepts, in UTF-16 code units.
    static let maxKeyLength = 128

    /// - Throws: ``JarvisError`` `.invalidParams` for an empty key or one over ``maxKeyLength``.
    static func check(key: String) throws(JarvisError) {
        let length = key.utf16.count
        guard length > 0, length <= maxKeyLength else {
            throw JarvisError(
                .invalidParams,
                "iCloud key-value store keys are 1 to \(maxKeyLength) UTF-16 units long; this one has \(length)")
        }
    }
}
