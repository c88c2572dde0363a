#if canImport(Darwin)
    import Foundation
    import JarvisCore

    /// Watches the host's suites with key-value observing, which, unlike
    /// `UserDefaults.didChangeNotification`, also reports writes made by other processes (an
    /// extension, a widget, `defaults write`), as Apple documents for `UserDefaults`.
    ///
    /// KVO observes keys, not suites: every key stored when watching starts is observed, once
    /// per process. Keys holding `.` or starting with `@` are left out, since KVO reads them as
    /// key paths and operators; their changes still show through the preferences folder.
    final class DefaultsKeyObserver: NSObject, Sendable {
        /// The one observer of the process.
        static let shared = DefaultsKeyObserver()

        /// Fired with the suite whose key changed.
        let signal = ChangeSignal()

        // Guards `suites`: the observed `UserDefaults` of each suite, kept alive with the
        // keys observed on it.
        private let suites = Locked<[String: ObservedSuite]>([:])

        /// One observed suite. `@unchecked Sendable`: Apple documents `UserDefaults` as
        /// thread-safe, but the SDK does not mark it `Sendable`.
        private struct ObservedSuite: @unchecked Sendable {
            let defaults: UserDefaults
            var keys: Set<String>
        }

        /// Starts observing the stored keys of `names` that are not observed yet.
        func observe(suites names: [String]) {
            for name in names {
                let defaults: UserDefaults?
                if name == PreferencesFolder.standardSuiteName {
                    defaults = .standard
                } else {
                    defaults = UserDefaults(suiteName: name)
                }
                guard let defaults else { continue }
                let stored = Set((defaults.persistentDomain(forName: name) ?? [:]).keys)
                let candidate = ObservedSuite(defaults: defaults, keys: [])
                let added = suites.withLock { suites -> ObservedSuite in
                    let entry = suites[name] ?? candidate
                    let fresh = stored.subtracting(entry.keys).filter { !$0.contains(".") && !$0.hasPrefix("@") }
                    suites[name] = ObservedSuite(defaults: entry.defaults, keys: entry.keys.union(fresh))
                    return ObservedSuite(defaults: entry.defaults, keys: fresh)
                }
                for key in added.keys {
                    added.defaults.addObserver(self, forKeyPath: key, options: [.new], context: nil)
                }
            }
        }

        override func observeValue(
            forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
            context: UnsafeMutableRawPointer?
        ) {
            let changed = (object as AnyObject?).map(ObjectIdentifier.init)
            let suite = suites.withLock { suites in
                suites.first { ObjectIdentifier($0.value.defaults) == changed }?.key
            }
            signal.send(container: suite)
        }
    }
#endif
