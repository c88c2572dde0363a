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
/// yet is created in the keyring or Keychain.
public struct SecretsScanner: PreferenceScanner {
    /// `secrets`.
    public let id = "secrets"
    let backends: [any SecretBackend]

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

    /// The container of that name, or a new one when a keyring here can create it.
    public func container(named name: String) throws -> ContainerInfo? {
        if let route = routes().first(where: { $0.info.name == name }) { return route.info }
        let creates = backends.contains { $0.createsContainers && $0.unavailableReason == nil }
        return creates ? ContainerInfo(name, exists: false) : nil
    }

    /// The entries of one container, from the backend that owns it.
    public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        guard let route = routes().first(where: { $0.info.name == request.container }), let backend = route.backend
        else {
            return []
        }
        return try backend.read(ReadRequest(container: route.native, keys: request.keys))
    }

    /// Stores or removes one secret in the backend that owns the container; a new container
    /// goes to the first backend that can create one.
    public func write(_ request: WriteRequest) throws {
        var native = request
        if let route = routes().first(where: { $0.info.name == request.container }) {
            guard let backend = route.backend else {
                throw JarvisError(.unavailable, route.info.problem ?? "'\(request.container)' cannot be written")
            }
            native.container = route.native
            try backend.write(native)
            return
        }
        guard let creator = backends.first(where: { $0.createsContainers && $0.unavailableReason == nil }) else {
            throw JarvisError(
                .notFound,
                "no container '\(request.container)' in secrets, and no keyring here can create one; a folder of secret files takes keys only in its own container"
            )
        }
        try creator.write(native)
    }

    // MARK: - Routing

    /// Where a shown container lives: its backend (nil for a backend that cannot work) and
    /// its name there.
    struct Route {
        var info: ContainerInfo
        var backend: (any SecretBackend)?
        var native: String
    }

    func routes() -> [Route] {
        var routes: [Route] = []
        var used: Set<String> = []
        func unique(_ name: String, _ backend: String) -> String {
            var candidate = name
            var counter = 1
            while used.contains(candidate) {
                candidate = counter == 1 ? "\(name)@\(backend)" : "\(name)@\(backend)-\(counter)"
                counter += 1
            }
            used.insert(candidate)
            return candidate
        }
        for backend in backends {
            if let reason = backend.unavailableReason {
                let name = unique(backend.name, backend.name)
                routes.append(
                    Route(info: ContainerInfo(name, problem: reason, isWritable: false), backend: nil, native: name))
                continue
            }
            do {
                for container in try backend.containers() {
                    var shown = container
                    shown.name = unique(container.name, backend.name)
                    routes.append(
                        Route(info: shown, backend: container.problem == nil ? backend : nil, native: container.name))
                }
            } catch {
                let name = unique(backend.name, backend.name)
                let message = (error as? JarvisError)?.message ?? String(describing: error)
                routes.append(
                    Route(info: ContainerInfo(name, problem: message, isWritable: false), backend: nil, native: name))
            }
        }
        return routes
    }
}

extension PreferenceScanner where Self == SecretsScanner {
    /// Secrets of this machine: the Keychain on Apple platforms, the Secret Service keyring
    /// (GNOME Keyring, KWallet) elsewhere when `secretService` is true, and each folder of
    /// secret files (`/run/secrets`, a Kubernetes secret volume, `$CREDENTIALS_DIRECTORY`).
    public static func secrets(folders: [URL] = [], secretService: Bool = true) -> SecretsScanner {
        SecretsScanner(
            backends: SecretsScanner.platformBackends(secretService: secretService)
                + folders.map { SecretFilesBackend(folder: $0) })
    }
}
