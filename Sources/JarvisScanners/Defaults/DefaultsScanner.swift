import Foundation
import JarvisCore

/// The defaults scanner (id `defaults`): one container per suite, one entry per key.
///
/// Two stores stand behind it. ``PreferenceScanner/defaults(suites:includeSystemDomains:)``
/// works inside the host, through `UserDefaults`, so the host sees edits at once and
/// registered defaults are shown (as ``ValueLayer/registered``) beside stored values.
/// ``PreferenceScanner/defaults(folder:includeSystemDomains:)`` works on a folder of plist
/// files, for an agent that runs beside a program instead of inside it.
///
/// Values are shown losslessly: booleans, integers and reals stay apart, dates and data nest
/// anywhere. `Data` holding a Codable value (JSON, or a property list) is shown as its
/// structure with ``ScannedEntry/encoding`` set, and written back encoded the same way.
/// Unsigned integers above `Int64.max` are shown as the nearest real and are read-only.
public struct DefaultsScanner: PreferenceScanner {
    private let store: any DefaultsStore

    init(store: any DefaultsStore) {
        self.store = store
    }

    /// Always `defaults`, whichever store is behind it.
    public var id: String { "defaults" }

    /// The store's name, and why it cannot work (a missing folder) when it cannot.
    public var info: ScannerInfo { store.info }

    /// Where the suites live: a folder's resolved path, or the program's own domains.
    public var location: String? { store.location }

    /// Where one suite lives: its file's resolved path, or its domain and the app.
    public func location(of container: String) -> String? { store.location(of: container) }

    /// Every property-list type.
    public var valueTypes: [PreferenceType]? { PreferenceType.allCases }

    /// The suites: discovered in the preferences folder (or the given folder), plus the
    /// suites named in code and the standard suite; Apple's system domains only on request.
    public func containers() throws -> [ContainerInfo] {
        try store.containers()
    }

    /// The suite, or a new one for any valid name a write would create; nil for a name that
    /// cannot be a suite.
    public func container(named name: String) throws -> ContainerInfo? {
        try store.container(named: name)
    }

    /// The suite's stored values and its registered defaults that nothing stored shadows.
    /// - Throws: ``JarvisError`` `.storage` when the suite's file cannot be parsed, and
    ///   `.invalidParams` for a name that cannot be a suite.
    public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        try store.entries(in: request.container, keys: request.keys)
    }

    /// One key of a suite, as ``read(_:)`` gives it.
    /// - Throws: as ``read(_:)``.
    public func read(key: String, in container: String) throws -> ScannedEntry? {
        try store.entry(key, in: container)
    }

    /// One key of a suite file found unchanged while its watched folder stayed quiet, from the
    /// parsed copy alone; nil when the file must be looked at (or in process, where
    /// `UserDefaults` may ask its daemon).
    public func readFromMemory(key: String, in container: String, checkpoint: ChangeCheckpoint) -> ScannedEntry? {
        store.entryInMemory(key, in: container, checkpoint: checkpoint)
    }

    /// Stores or removes one key, on disk before returning. With `encoding` set, a structure
    /// is encoded back into `Data` (JSON, or a property list in the format the data had).
    /// - Throws: ``JarvisError`` `.typeMismatch` when the value cannot be encoded as asked
    ///   (a date inside JSON), `.storage` when the suite cannot be saved.
    public func write(_ request: WriteRequest) throws {
        _ = try store(request)
    }

    /// Stores or removes one key like ``write(_:)`` and returns the key as the suite now holds
    /// it, from what was written (a suite file is not read back).
    public func store(_ request: WriteRequest) throws -> WriteResult {
        switch request.change {
        case .delete:
            return try store.setObject(nil, forKey: request.key, in: request.container)
        case .set(let value):
            let current =
                request.encoding == .propertyList
                ? try store.storedObject(forKey: request.key, in: request.container) : nil
            let object = try DefaultsEntries.object(
                for: value, encoding: request.encoding, current: current, key: request.key)
            return try store.setObject(object, forKey: request.key, in: request.container)
        }
    }
}

extension DefaultsScanner {
    /// The preferences folder (other processes' writes) and, in process, whatever tells of the
    /// host's own writes; set up only while a client watches.
    public func watchTargets() -> [WatchTarget] {
        store.watchTargets()
    }

    /// The suite file's version, where the store keeps suites as files it reads itself.
    public func version(of container: String) -> ContainerVersion? {
        store.version(of: container)
    }

    /// `<suite>.plist` in a watched folder is that suite.
    public func containers(changedAt path: String) -> [String]? {
        store.containers(changedAt: path)
    }

    /// Apple's own domains are system containers, hidden unless the configuration (or
    /// `includeSystemDomains`) includes them; a linked suite has its target's name as an alias.
    public func storedNames(container: String, key: String?) -> StoredNames {
        storedNames(container: container, key: key, checkpoint: .none)
    }

    /// As ``storedNames(container:key:)``; after a passed `checkpoint`, a suite found
    /// unchanged while its watched folder stayed quiet is answered without a system call.
    public func storedNames(container: String, key: String?, checkpoint: ChangeCheckpoint) -> StoredNames {
        // Keys live inside a suite's file: their names are only themselves.
        key == nil ? store.storedNames(suite: container, checkpoint: checkpoint) : StoredNames()
    }
}

extension PreferenceScanner where Self == DefaultsScanner {
    /// The host's own defaults, found without configuration: every suite in the platform's
    /// preferences folder, the standard suite, and `suites` (for suites with no file yet).
    /// - Parameter includeSystemDomains: also list Apple's `com.apple.*` and global domains.
    public static func defaults(suites: [String] = [], includeSystemDomains: Bool = false) -> DefaultsScanner {
        DefaultsScanner(store: UserDefaultsStore(namedSuites: suites, includeSystemDomains: includeSystemDomains))
    }

    /// The host's own defaults plus its App Groups' suites, each named by its group id
    /// (`group.com.example.shared`) and read through `UserDefaults(suiteName:)`. On Apple
    /// platforms the group's container (`containerURL(forSecurityApplicationGroupIdentifier:)`)
    /// is watched too, so writes by the app's extensions and widgets show.
    /// - Parameter includeSystemDomains: also list Apple's `com.apple.*` and global domains.
    public static func defaults(
        suites: [String] = [], appGroups: [String], includeSystemDomains: Bool = false
    ) -> DefaultsScanner {
        var store = UserDefaultsStore(namedSuites: suites, includeSystemDomains: includeSystemDomains)
        store.appGroups = appGroups
        return DefaultsScanner(store: store)
    }

    /// The `*.plist` files of a folder, one suite each, for an agent that does not run
    /// inside the program whose preferences these are. Writes are atomic and keep each
    /// file's format and permissions; a file that does not parse is listed with its problem
    /// and never overwritten.
    /// - Parameter includeSystemDomains: also list Apple's `com.apple.*` and global domains.
    /// - Parameter cacheBytes: what the parsed suites kept between reads may take in memory,
    ///   the suites parsed longest ago going first; nil for 32 MiB. (A file whose value would
    ///   expand past a few times its size is refused as a problem, whatever this says.)
    public static func defaults(folder: URL, includeSystemDomains: Bool = false, cacheBytes: Int? = nil)
        -> DefaultsScanner
    {
        defaults(folders: [folder], includeSystemDomains: includeSystemDomains, cacheBytes: cacheBytes)
    }

    /// The `*.plist` files of several folders as one scanner: a suite found in more than one
    /// folder is the first folder's, and a new suite is created in the first folder.
    /// - Parameter includeSystemDomains: also list Apple's `com.apple.*` and global domains.
    /// - Parameter cacheBytes: what each folder's parsed suites kept between reads may take in
    ///   memory (see ``defaults(folder:includeSystemDomains:cacheBytes:)``); nil for 32 MiB.
    public static func defaults(folders: [URL], includeSystemDomains: Bool = false, cacheBytes: Int? = nil)
        -> DefaultsScanner
    {
        let stores = folders.map {
            PlistFolderStore(folder: $0, includeSystemDomains: includeSystemDomains, cacheBytes: cacheBytes)
        }
        if stores.count == 1, let only = stores.first { return DefaultsScanner(store: only) }
        return DefaultsScanner(store: FolderSetStore(stores: stores))
    }
}
