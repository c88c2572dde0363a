import Foundation
import JarvisCore

/// The host's feature flags, shown to `jarvis` as the container `features` of the scanner
/// `flags`. This is the whole plugin: an id, the containers, a read and a write.
final class FeatureFlagsScanner: PreferenceScanner, @unchecked Sendable {
    let id = "flags"
    // `flags` is only touched while `lock` is held.
    private let lock = NSLock()
    private var flags: [String: Bool]

    init(_ flags: [String: Bool]) {
        self.flags = flags
    }

    /// A flag's value, for the host's own code.
    func isOn(_ name: String) -> Bool {
        lock.withLock { flags[name] ?? false }
    }

    func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        lock.withLock { flags.map { ScannedEntry(key: $0.key, value: .boolean($0.value)) } }
    }

    func write(_ request: WriteRequest) throws {
        switch request.change {
        case .set(.boolean(let flag)): lock.withLock { flags[request.key] = flag }
        case .set(let other):
            throw JarvisError(.typeMismatch, "feature flags are booleans; got \(other.type) (use --bool)")
        case .delete: lock.withLock { flags[request.key] = nil }
        }
    }
}
