import Foundation
import JarvisCore

/// Secrets: the desktop keyring (Secret Service) on Linux, the Keychain on Apple platforms,
/// and folders of secret files (Docker, Kubernetes, systemd credentials) everywhere.
///
/// Its values are secrets: the hub masks every one (length and a keyed fingerprint) unless
/// the configuration allows reveal and the client asks for it.
///
/// ```swift
/// agent.register(.secrets(folders: [URL(fileURLWithPath: "/run/secrets")]))
/// ```
///
/// Each backend contributes its containers (keyring services, Keychain services and servers,
/// one per folder); when two backends have a container of the same name, the later one is
/// shown as `name@backend` (`secrets@files`). A key set in a container that does not exist
/// yet is created in the keyring or Keychain. Only a listing lists: a request that names a
/// container asks each backend for that name, and a keyring finds a key by its attributes.
public struct SecretsScanner: PreferenceScanner {
    /// `secrets`.
    public let id = "secrets"
    let backends: [any SecretBackend]
    /// Where names led when a backend was asked, for the next steps of the same request.
    let recentRoutes = Locked(RecentlyFound<Route>())

    init(backends: [any SecretBackend]) {
        self.backends = backends
    }

    /// Folders of secret files, plus the system keyring (Secret Service, or the Keychain on
    /// Apple platforms) only when asked: what `jarvis-agent` serves, where a process's own
    /// Keychain is rarely what the user means.
    package init(folders: [URL], systemKeyring: Bool) {
        self.init(
            backends: (systemKeyring ? Self.platformBackends(secretService: true) : [])
                + folders.map { SecretFilesBackend(folder: $0) })
    }

    /// Masked by the hub; unavailable only when no backend can work here.
    public var info: ScannerInfo {
        ScannerInfo(displayName: "Secrets", isSecret: true, isWritable: true, unavailableReason: unavailableReason)
    }

    /// A secret holds text or bytes, in every backend.
    public var valueTypes: [PreferenceType]? { [.string, .data] }

    /// Every backend's place, in order.
    public var location: String? { backends.map(\.location).joined(separator: "\n") }

    /// The place of the first backend that could hold the container, told from its name alone
    /// (a keyring is never asked: one that hangs must not stop an undo from saying why).
    public func location(of container: String) -> String? {
        let backend = backends.count == 1 ? backends.first : backends.first { $0.couldHave(container: container) }
        return backend?.location ?? location
    }

    private var unavailableReason: String? {
        if backends.isEmpty {
            return "no secret store to serve: give it folders of secret files, or enable the keyring"
        }
        let reasons = backends.compactMap { backend in backend.unavailableReason.map { "\(backend.name): \($0)" } }
        return reasons.count == backends.count ? reasons.joined(separator: "; ") : nil
    }

    /// Every backend's containers; a backend that cannot work shows as a container with a problem.
    public func containers() throws -> [ContainerInfo] {
        routes().map(\.info)
    }

    /// A secret file that is a link has its target's name as an alias, so hide rules on the
    /// target apply to the link. Asks only folders (no keyring), from the file system.
    public func storedNames(container: String, key: String?) -> StoredNames {
        guard let key,
            let files = backends.lazy.compactMap({ $0 as? SecretFilesBackend }).first(where: {
                $0.containerName == container
            })
        else { return StoredNames() }
        return files.storedNames(key: key)
    }

    /// The container of that name, or a new one when a keyring here can create it; found
    /// without listing (see ``route(_:presuming:)``).
    public func container(named name: String) throws -> ContainerInfo? {
        try route(name, presuming: false)?.info
    }

    /// The entries of one container, from the backend that owns it; a read of named keys in
    /// a keyring looks up those keys alone.
    public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        guard var route = try route(request.container, presuming: true) else { return [] }
        if route.tentative && request.keys == nil {
            guard let settled = try settled(route, request.container) else { return [] }
            route = settled
        }
        guard route.info.exists, let backend = route.backend else { return [] }
        let entries = try backend.read(ReadRequest(container: route.native, keys: request.keys))
        guard route.tentative else { return entries }
        if !entries.isEmpty {
            confirm(route, request.container)
            return entries
        }
        // Not in the keyring presumed: the name may belong to a later one.
        guard let settled = try settled(route, request.container), settled.index != route.index,
            settled.info.exists, let owner = settled.backend
        else { return [] }
        return try owner.read(ReadRequest(container: settled.native, keys: request.keys))
    }

    /// Stores or removes one secret in the backend that owns the container; a new container
    /// goes to the first backend that can create one.
    public func write(_ request: WriteRequest) throws {
        _ = try store(request)
    }

    /// Stores or removes one secret like ``write(_:)`` and returns the key as it is now, from
    /// what was stored: a keyring changes the item the hub's read just found, without looking
    /// for it again, and nothing is read back.
    public func store(_ request: WriteRequest) throws -> WriteResult {
        let presumed = try route(request.container, presuming: true)
        guard let route = try presumed.flatMap({ try settled($0, request.container) }) else {
            throw JarvisError(
                .notFound,
                "no container '\(request.container)' in secrets, and no keyring here can create one; a folder of secret files takes keys only in its own container"
            )
        }
        guard let backend = route.backend else {
            throw JarvisError(.unavailable, route.info.problem ?? "'\(request.container)' cannot be written")
        }
        var native = request
        native.container = route.native
        let result = try backend.store(native)
        if !route.info.exists { forgetRoute(request.container) }
        return result
    }
}

extension PreferenceScanner where Self == SecretsScanner {
    /// Secrets of this machine: the Keychain on Apple platforms, the Secret Service keyring
    /// (GNOME Keyring, KWallet) elsewhere when asked for, and each folder of secret files
    /// (`/run/secrets`, a Kubernetes secret volume, `$CREDENTIALS_DIRECTORY`).
    ///
    /// - Parameters:
    ///   - folders: folders of secret files, one file per secret.
    ///   - secretService: whether to serve the desktop keyring. By default (`nil`) only when
    ///     no folder is named: `.secrets()` is the keyring, `.secrets(folders: […])` the folders
    ///     alone, so a headless service never reports a missing D-Bus session. Ignored on Apple
    ///     platforms, where the Keychain is always served.
    public static func secrets(folders: [URL] = [], secretService: Bool? = nil) -> SecretsScanner {
        SecretsScanner(
            backends: SecretsScanner.platformBackends(secretService: secretService ?? folders.isEmpty)
                + folders.map { SecretFilesBackend(folder: $0) })
    }
}
