/// A source of preferences: the plugin protocol of Jarvis.
///
/// A scanner is to Jarvis what a `LogHandler` is to swift-log: a small `Sendable` type the
/// agent calls from its own threads. It reports raw values; the hub around it applies the
/// privacy configuration, masks secrets, computes revisions and checks expected revisions,
/// so a scanner never needs to know about any of that.
///
/// Rules for implementers:
/// - A scanner is **read-only unless it says otherwise**: the default ``info`` is read-only
///   and the default ``write(_:)`` refuses. To take writes, implement `write` *and* return
///   `ScannerInfo(displayName: …, isWritable: true)` from `info`; the hub never calls
///   `write` on a scanner whose info is read-only.
/// - Calls arrive on background threads, possibly at the same time; writes are serialized
///   by the hub. Never block on the main thread.
/// - Keep mutable state in a ``Locked`` box: the type is then `Sendable` as written, with
///   no `@unchecked` and no lock of your own.
/// - `write` returns only after the change is stored (on disk, in the keyring), so the next
///   `read` sees it.
/// - A scanner that knows what it stored implements ``store(_:)`` too, returning it: the hub
///   then reads nothing back after a write. The default ``store(_:)`` calls ``write(_:)`` and
///   reads the key once.
/// - Throw ``JarvisError`` with a message a person can act on; any other error is reported
///   as a storage failure with its description.
///
/// A complete read-only scanner:
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
///
/// The same scanner taking writes, its state in a ``Locked`` box:
///
/// ```swift
/// final class FlagsScanner: PreferenceScanner {
///     let id = "flags"
///     let info = ScannerInfo(displayName: "Feature flags", isWritable: true)
///     private let flags = Locked<[String: Bool]>(["new_onboarding": false])
///     func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }
///     func read(_ request: ReadRequest) throws -> [ScannedEntry] {
///         flags.current.map { ScannedEntry(key: $0.key, value: .boolean($0.value)) }
///     }
///     func write(_ request: WriteRequest) throws {
///         guard case .set(.boolean(let on)) = request.change else {
///             throw JarvisError(.typeMismatch, "flags are booleans")
///         }
///         flags.withLock { $0[request.key] = on }
///     }
/// }
/// ```
public protocol PreferenceScanner: Sendable {
    /// A short stable id used on the wire and in the configuration, e.g. `defaults`.
    var id: String { get }

    /// How the scanner presents itself, and whether it takes writes; see ``ScannerInfo``.
    var info: ScannerInfo { get }

    /// The value types its containers store, in ``PreferenceType`` order (a face offers only
    /// these for a new key); nil, the default, for every type. `scanners` sends it as `types`.
    var valueTypes: [PreferenceType]? { get }

    /// The containers that exist now (suites, files, services, folders).
    func containers() throws -> [ContainerInfo]

    /// The entries of one container, all of them or only the keys asked for.
    func read(_ request: ReadRequest) throws -> [ScannedEntry]

    /// One key of one container, as ``read(_:)`` with that key alone gives it; nil when the
    /// container does not hold it. Every `get` asks this: a scanner that finds one key
    /// without building arrays may answer it directly (the default asks ``read(_:)``).
    func read(key: String, in container: String) throws -> ScannedEntry?

    /// One key as ``read(key:in:)`` gives it, when the scanner holds it in memory now and
    /// knows it is current without asking storage; nil otherwise (not held, or held but maybe
    /// stale, or absent). The agent calls this on its readiness loop thread, which serves every
    /// client: it must never wait on a file, a keyring, a daemon or a subprocess, only take a
    /// lock around memory. A nil answer costs nothing but a hop: the key is then read with
    /// ``read(key:in:)`` on a worker thread. `checkpoint` tells whether the change
    /// notifications the process hears were read after the request arrived (see
    /// ``ChangeCheckpoint``). The default asks ``readFromMemory(key:in:)``.
    func readFromMemory(key: String, in container: String, checkpoint: ChangeCheckpoint) -> ScannedEntry?

    /// What ``readFromMemory(key:in:checkpoint:)`` answers for a scanner that needs no
    /// checkpoint (the form scanners written before it implement). The default answers nil.
    func readFromMemory(key: String, in container: String) -> ScannedEntry?

    /// Stores or removes one value. Return only once the change is stored. Called only when
    /// ``info`` says the scanner is writable.
    func write(_ request: WriteRequest) throws

    /// Stores or removes one value like ``write(_:)`` and returns what the key holds now, as
    /// ``read(_:)`` would return it. The hub calls this, never `write` directly, and answers
    /// the client with the result, so a scanner that implements it is read once per write. The
    /// default calls ``write(_:)``, then reads the key back.
    func store(_ request: WriteRequest) throws -> WriteResult

    /// One container by name, for a request that names it: the existing container, one that
    /// a write would create (with ``ContainerInfo/exists`` false), or nil when it neither
    /// exists nor can be created. The default looks it up in ``containers()``, so a scanner
    /// that creates containers on write, or can find one faster than listing them all,
    /// implements this.
    func container(named name: String) throws -> ContainerInfo?

    /// Where to look for changes while a client watches (folders, files, a schedule, a
    /// signal). Called when watching starts; the default reads everything again every second.
    func watchTargets() -> [WatchTarget]

    /// The containers stored at `path`, a file inside a ``WatchTarget/folder(_:)`` target that
    /// changed; nil when unknown, and then every container is read again (the default).
    func containers(changedAt path: String) -> [String]?

    /// The version of a container's contents now (see ``ContainerVersion``), asked while a
    /// client watches before each read of it; nil when the scanner cannot tell, the default,
    /// and then the container is read to find out. Answer from cheap metadata only.
    func version(of container: String) -> ContainerVersion?
    /// What a container name (or, with `key`, a key name in it) really opens: link targets,
    /// case-insensitivity, system containers. The hub applies its hide rules to all of it.
    /// Called often: answer from names and cheap file metadata only. Default: the name alone.
    func storedNames(container: String, key: String?) -> StoredNames

    /// The names as ``storedNames(container:key:)`` gives them, for a request answered after
    /// `checkpoint` (see ``ChangeCheckpoint``): a scanner that keeps what it read from a folder
    /// whose changes it hears may trust them instead of asking the kernel. The default asks
    /// ``storedNames(container:key:)``.
    func storedNames(container: String, key: String?, checkpoint: ChangeCheckpoint) -> StoredNames

    /// Where this scanner's containers live, the same across runs: a folder's resolved path, a
    /// suite's domain and the app's bundle id, a keyring collection. The agent picks the
    /// journal it keeps across restarts by what its scanners serve, so two agents of one name
    /// serving different folders never share one. Nil, the default, for a scanner whose values
    /// live in the program itself (the program then names the place).
    var location: String? { get }

    /// Where one container lives, the same across runs (a file's resolved path; a suite's
    /// file, or its domain and the app's bundle id; a device, app and suite). Every journal
    /// entry records it, and an undo, redo or restore writes only where the container still
    /// lives there. Answer from names and cheap file metadata only. The default is
    /// ``location``.
    func location(of container: String) -> String?
}

// MARK: - Default implementations

extension PreferenceScanner {
    /// A read-only scanner named after its id, matching the default ``write(_:)``.
    public var info: ScannerInfo { ScannerInfo(displayName: id) }

    /// Every type: a scanner that stores fewer says which.
    public var valueTypes: [PreferenceType]? { nil }

    /// The key as ``read(_:)`` gives it when asked for that key alone.
    public func read(key: String, in container: String) throws -> ScannedEntry? {
        try read(ReadRequest(container: container, keys: [key])).first { $0.key == key }
    }

    /// What ``readFromMemory(key:in:)`` answers: a scanner that needs no checkpoint
    /// implements that one alone.
    public func readFromMemory(key: String, in container: String, checkpoint: ChangeCheckpoint) -> ScannedEntry? {
        readFromMemory(key: key, in: container)
    }

    /// Not held in memory: every key is read with ``read(key:in:)``, off the loop.
    public func readFromMemory(key: String, in container: String) -> ScannedEntry? { nil }

    /// Unknown: a watched container is read to find whether it changed.
    public func version(of container: String) -> ContainerVersion? { nil }

    /// Read-only by default: refuses every write with a clear message.
    public func write(_ request: WriteRequest) throws {
        throw JarvisError(.readOnly, "scanner '\(id)' is read-only")
    }

    /// Writes, then reads the key back: correct for every scanner, one read more than a
    /// scanner that knows what it stored.
    public func store(_ request: WriteRequest) throws -> WriteResult {
        try write(request)
        let back = try read(ReadRequest(container: request.container, keys: [request.key]))
        return WriteResult(entry: back.first { $0.key == request.key })
    }

    /// The listed container of that name; nil (cannot be created) when none is listed.
    public func container(named name: String) throws -> ContainerInfo? {
        try containers().first { $0.name == name }
    }

    /// Storage that tells nobody when it changes: read again every second while watched.
    public func watchTargets() -> [WatchTarget] { [.schedule(every: .seconds(1))] }

    /// Unknown: every container is read again.
    public func containers(changedAt path: String) -> [String]? { nil }

    /// Plain names: no aliases, case-sensitive, nothing of the system's.
    public func storedNames(container: String, key: String?) -> StoredNames { StoredNames() }

    /// Nil: the scanner's values live in the program itself.
    public var location: String? { nil }

    /// The scanner's ``location``.
    public func location(of container: String) -> String? { location }

    /// What ``storedNames(container:key:)`` answers, whatever the checkpoint.
    public func storedNames(container: String, key: String?, checkpoint: ChangeCheckpoint) -> StoredNames {
        storedNames(container: container, key: key)
    }
}
