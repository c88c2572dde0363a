import Foundation
import JarvisCore

/// One place secrets live (a keyring, the Keychain, a folder of secret files), as the
/// ``SecretsScanner`` sees it. Internal: the scanner merges every backend's containers
/// into one list and routes each request to the backend that owns the container, asking
/// each backend for a container by name rather than listing them all.
///
/// Backends report raw values, exactly like a scanner; the hub masks them.
protocol SecretBackend: Sendable {
    /// A short name (`secret-service`, `keychain`, `files`): shown when the backend cannot
    /// work, and appended to a container whose name another backend already uses.
    var name: String { get }

    /// Nil when the backend can work here; otherwise why not, in words a person can act on.
    var unavailableReason: String? { get }

    /// Whether setting a key in a container it does not have creates that container
    /// (keyrings can; a folder of secret files cannot grow another folder).
    var createsContainers: Bool { get }

    /// The containers that exist now: a listing.
    func containers() throws -> [ContainerInfo]

    /// Whether it may have a container of that name, answered from the name alone (a folder
    /// knows its one name; a keyring must look).
    func couldHave(container name: String) -> Bool

    /// The container of that name if it exists, found without listing (at most one lookup).
    func container(named name: String) throws -> ContainerInfo?

    /// The entries of one of its containers; a read of named keys lists nothing.
    func read(_ request: ReadRequest) throws -> [ScannedEntry]

    /// Stores or removes one secret and returns what its key holds now, from what was
    /// stored (nothing is read back); returns once it is stored.
    func store(_ request: WriteRequest) throws -> WriteResult

    /// Where its secrets live, the same across runs: a folder's resolved path, or the keyring
    /// and whose it is.
    var location: String { get }
}

/// How secret bytes become values and back, the same way for every backend.
enum SecretBytes {
    /// Text when the bytes are valid UTF-8, otherwise data.
    static func value(_ bytes: [UInt8]) -> PreferenceValue {
        // Decoding repairs invalid sequences; the bytes were valid only if nothing changed.
        // (`String(validating:)` would say it directly, but needs macOS 15.)
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? .string(text) : .data(Data(bytes))
    }

    /// The bytes to store for a value; secrets hold text or data only.
    static func bytes(_ value: PreferenceValue, key: String) throws(JarvisError) -> (bytes: [UInt8], isText: Bool) {
        switch value {
        case .string(let text): return (Array(text.utf8), true)
        case .data(let data): return (Array(data), false)
        default:
            throw JarvisError(
                .typeMismatch,
                "a secret holds text or data, not \(value.type.rawValue); set '\(key)' as a string or as data")
        }
    }
}
