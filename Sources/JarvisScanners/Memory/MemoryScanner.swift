import JarvisCore

/// A scanner over values held in memory: for a host's runtime settings object or feature
/// flags that live nowhere on disk, and for tests that need a real scanner without files.
///
/// ```swift
/// let flags = MemoryScanner(id: "flags", contents: ["features": ["new_onboarding": true]])
/// agent.register(flags)
/// flags.onChange = { container, key, value in FeatureFlags.apply(key, value) }
/// ```
public final class MemoryScanner: PreferenceScanner, Sendable {
    /// The scanner's id.
    public let id: String
    /// How it presents itself.
    public let info: ScannerInfo
    private let store: Locked<[String: [String: PreferenceValue]]>
    private let observer = Locked<(@Sendable (String, String, PreferenceValue?) -> Void)?>(nil)
    private let changes = ChangeSignal()

    /// Creates a scanner holding `contents` (container → key → value).
    public init(
        id: String, displayName: String? = nil, isSecret: Bool = false,
        contents: [String: [String: PreferenceValue]] = [:]
    ) {
        self.id = id
        info = ScannerInfo(displayName: displayName ?? id, isSecret: isSecret, isWritable: true)
        store = Locked(contents)
    }

    /// Called after a client changes a value (nil when deleted), on the agent's thread.
    public var onChange: (@Sendable (_ container: String, _ key: String, _ value: PreferenceValue?) -> Void)? {
        get { observer.current }
        set { observer.withLock { $0 = newValue } }
    }

    /// The values now, for the host to read.
    public var contents: [String: [String: PreferenceValue]] { store.current }

    /// Sets a value from the host's side; clients watching the container see the change.
    public func update(_ container: String, _ key: String, to value: PreferenceValue?) {
        store.withLock { $0[container, default: [:]][key] = value }
        changes.send(container: container)
    }

    /// The values live in memory, so the scanner itself says when they change.
    public func watchTargets() -> [WatchTarget] { [.signal(changes)] }

    /// Every container, sorted.
    public func containers() throws -> [ContainerInfo] {
        store.current.keys.sorted().map { ContainerInfo($0) }
    }

    /// The container, or a new one: a write creates any container.
    public func container(named name: String) throws -> ContainerInfo? {
        ContainerInfo(name, exists: store.current[name] != nil)
    }

    /// The container's entries.
    public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        let values = store.current[request.container] ?? [:]
        if let keys = request.keys {
            return keys.compactMap { key in values[key].map { ScannedEntry(key: key, value: $0) } }
        }
        return values.map { ScannedEntry(key: $0.key, value: $0.value) }
    }

    /// The key, which is always in memory: the agent answers its `get`s on its loop thread.
    public func readFromMemory(key: String, in container: String) -> ScannedEntry? {
        store.withLock { $0[container]?[key] }.map { ScannedEntry(key: key, value: $0) }
    }

    /// Stores the change in memory, then tells `onChange`.
    public func write(_ request: WriteRequest) throws {
        _ = try store(request)
    }

    /// Stores the change in memory, tells `onChange`, and returns the value stored.
    public func store(_ request: WriteRequest) throws -> WriteResult {
        var newValue: PreferenceValue?
        if case .set(let value) = request.change { newValue = value }
        update(request.container, request.key, to: newValue)
        observer.current?(request.container, request.key, newValue)
        return WriteResult(entry: newValue.map { ScannedEntry(key: request.key, value: $0) })
    }
}
