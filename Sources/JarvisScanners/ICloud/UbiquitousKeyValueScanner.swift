#if canImport(Darwin)
    import Foundation
    import JarvisCore

    /// The iCloud key-value store (`NSUbiquitousKeyValueStore.default`, scanner id `icloud`):
    /// one container, `key-value store`, listed, edited and deleted like a defaults suite.
    ///
    /// Changes pushed from the person's other devices arrive as
    /// `didChangeExternallyNotification`, which marks the container changed for watchers; the
    /// host's own writes (which post nothing) are caught by comparing every two seconds while
    /// watched. The app needs the iCloud key-value storage entitlement, or the store stays empty.
    public struct UbiquitousKeyValueScanner: PreferenceScanner {
        /// The one container's name.
        public static let containerName = "key-value store"

        /// A scanner over the app's iCloud key-value store.
        public init() {}

        /// Always `icloud`.
        public var id: String { "icloud" }

        /// Shown as "iCloud key-value store".
        public var info: ScannerInfo { ScannerInfo(displayName: "iCloud key-value store", isWritable: true) }

        /// Every property-list type, as the store takes them.
        public var valueTypes: [PreferenceType]? { PreferenceType.allCases }

        /// The store, as one container.
        public func containers() throws -> [ContainerInfo] { [ContainerInfo(Self.containerName)] }

        /// The store's keys and values. The store is synchronized once, on the first read (Apple
        /// asks for it at launch); the system keeps it current after that.
        /// - Throws: ``JarvisError`` `.notFound` for another container name.
        public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
            try Self.check(request.container)
            let store = NSUbiquitousKeyValueStore.default
            if Self.reports.shouldSynchronizeBeforeRead() { _ = store.synchronize() }
            return try DefaultsEntries.entries(
                stored: store.dictionaryRepresentation, registered: [:], keys: request.keys)
        }

        /// Sets or removes one key, then asks the system to push it to iCloud.
        /// - Throws: ``JarvisError`` `.notFound` for another container, `.invalidParams` for a
        ///   key over the store's limit (64 bytes of UTF-8), `.typeMismatch` for a value a property
        ///   list cannot hold, `.storage` for a write over the quota (1 MB, 1024 keys), refused
        ///   before it reaches the store, or reported by the system while the write ran.
        public func write(_ request: WriteRequest) throws {
            try Self.check(request.container)
            // The store raises an Objective-C exception (which ends the host) for a longer key.
            try UbiquitousKeyValueLimits.check(key: request.key)
            let store = NSUbiquitousKeyValueStore.default
            _ = Self.externalChanges  // the observer that hears of quota violations
            let violations = Self.reports.quotaViolations
            switch request.change {
            case .delete:
                store.removeObject(forKey: request.key)
            case .set(let value):
                let current = request.encoding == .propertyList ? store.object(forKey: request.key) : nil
                let object = try DefaultsEntries.object(
                    for: value, encoding: request.encoding, current: current, key: request.key)
                // Over the quota the system drops the write and says so only afterwards.
                let sizes = store.dictionaryRepresentation.mapValues(Self.size(of:))
                try UbiquitousKeyValueLimits.checkQuota(key: request.key, size: Self.size(of: object), sizes: sizes)
                store.set(object, forKey: request.key)
            }
            _ = store.synchronize()
            try Self.reports.checkNoViolation(since: violations, key: request.key)
        }

        /// A value's size as the store counts it, taken as its binary property list.
        private static func size(of object: Any) -> Int {
            (try? PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0).count) ?? 0
        }

        /// Changes from other devices, and a two-second comparison for the host's own writes.
        public func watchTargets() -> [WatchTarget] {
            [.signal(Self.externalChanges), .schedule(every: .seconds(2))]
        }

        private static func check(_ container: String) throws(JarvisError) {
            guard container == containerName else {
                throw JarvisError(.notFound, "the iCloud scanner has one container, '\(containerName)'")
            }
        }

        /// What the system told this process about its store (one store per process).
        private static let reports = UbiquitousKeyValueReports()

        /// One signal for the process, fed by one observer installed on first use; the same
        /// observer notes the quota violations the system reports.
        private static let externalChanges: ChangeSignal = {
            let signal = ChangeSignal()
            let quota = UbiquitousKeyValueScanner.reports
            _ = NotificationCenter.default.addObserver(
                forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: nil, queue: nil
            ) { notification in
                let reason = notification.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? Int
                if reason == NSUbiquitousKeyValueStoreQuotaViolationChange { quota.noteQuotaViolation() }
                signal.send(container: UbiquitousKeyValueScanner.containerName)
            }
            return signal
        }()
    }

    extension PreferenceScanner where Self == UbiquitousKeyValueScanner {
        /// The app's iCloud key-value store, as scanner `icloud` (Apple platforms only).
        public static func iCloudKeyValueStore() -> UbiquitousKeyValueScanner { UbiquitousKeyValueScanner() }
    }
#endif
