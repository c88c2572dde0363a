import JarvisCore

/// The host's feature flags, shown to `jarvis` as the container `features` of the scanner
/// `flags`. This is the whole plugin: an id, what it is, the containers, a read and a write.
///
/// It is `Sendable` without `@unchecked`: its only mutable state lives in a `Locked` box.
final class FeatureFlagsScanner: PreferenceScanner {
    let id = "flags"
    /// Scanners are read-only unless their info says otherwise; this one takes writes.
    let info = ScannerInfo(displayName: "Feature flags", isWritable: true)
    private let flags: Locked<[String: Bool]>

    init(_ flags: [String: Bool]) {
        self.flags = Locked(flags)
    }

    /// A flag's value, for the host's own code.
    func isOn(_ name: String) -> Bool {
        flags.current[name] ?? false
    }

    func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        flags.current.map { ScannedEntry(key: $0.key, value: .boolean($0.value)) }
    }

    func write(_ request: WriteRequest) throws {
        switch request.change {
        case .set(.boolean(let flag)): flags.withLock { $0[request.key] = flag }
        case .set(let other):
            throw JarvisError(.typeMismatch, "feature flags are booleans; got \(other.type) (use --bool)")
        case .delete: flags.withLock { $0[request.key] = nil }
        }
    }
}
