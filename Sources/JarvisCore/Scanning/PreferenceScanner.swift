/// A source of preferences: the plugin protocol of Jarvis.
///
/// A scanner is to Jarvis what a `LogHandler` is to swift-log: a small `Sendable` type the
/// agent calls from its own threads. It reports raw values; the hub around it applies the
/// privacy configuration, masks secrets, computes revisions and checks expected revisions,
/// so a scanner never needs to know about any of that.
///
/// Rules for implementers:
/// - Calls arrive on background threads, possibly at the same time; writes are serialized
///   by the hub. Never block on the main thread.
/// - `write` returns only after the change is stored (on disk, in the keyring), so the next
///   `read` sees it.
/// - Throw ``JarvisError`` with a message a person can act on; any other error is reported
///   as a storage failure with its description.
///
/// A complete read-only scanner over an in-memory dictionary:
///
/// ```swift
/// struct FlagsScanner: PreferenceScanner {
///     let id = "flags"
///     func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }
///     func read(_ request: ReadRequest) throws -> [ScannedEntry] {
///         [ScannedEntry(key: "new_onboarding", value: .boolean(FeatureFlags.newOnboarding))]
///     }
/// }
/// agent.register(FlagsScanner())
/// ```
public protocol PreferenceScanner: Sendable {
    /// A short stable id used on the wire and in the configuration, e.g. `defaults`.
    var id: String { get }

    /// How the scanner presents itself; see ``ScannerInfo``.
    var info: ScannerInfo { get }

    /// The containers that exist now (suites, files, services, folders).
    func containers() throws -> [ContainerInfo]

    /// The entries of one container, all of them or only the keys asked for.
    func read(_ request: ReadRequest) throws -> [ScannedEntry]

    /// Stores or removes one value. Return only once the change is stored.
    func write(_ request: WriteRequest) throws

    /// Where to look for changes while a client watches (folders, files, a schedule, a
    /// signal). Called when watching starts; the default reads everything again every second.
    func watchTargets() -> [WatchTarget]

    /// The containers stored at `path`, a file inside a ``WatchTarget/folder(_:)`` target that
    /// changed; nil when unknown, and then every container is read again (the default).
    func containers(changedAt path: String) -> [String]?
    /// What a container name (or, with `key`, a key name in it) really opens: link targets,
    /// case-insensitivity, system containers. The hub applies its hide rules to all of it.
    /// Called often: answer from names and cheap file metadata only. Default: the name alone.
    func storedNames(container: String, key: String?) -> StoredNames
}

// MARK: - Default implementations

extension PreferenceScanner {
    /// A read-write scanner named after its id.
    public var info: ScannerInfo { ScannerInfo(displayName: id) }

    /// Read-only by default: refuses every write with a clear message.
    public func write(_ request: WriteRequest) throws {
        throw JarvisError(.readOnly, "scanner '\(id)' is read-only")
    }

    /// Storage that tells nobody when it changes: read again every second while watched.
    public func watchTargets() -> [WatchTarget] { [.schedule(every: .seconds(1))] }

    /// Unknown: every container is read again.
    public func containers(changedAt path: String) -> [String]? { nil }

    /// Plain names: no aliases, case-sensitive, nothing of the system's.
    public func storedNames(container: String, key: String?) -> StoredNames { StoredNames() }
}
