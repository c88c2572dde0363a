import JarvisCore

/// Which backend a container name leads to: from every backend's list for a listing, and by
/// asking for the one name otherwise.
extension SecretsScanner: PresumedContainers {
    /// Where a shown container lives: its backend (nil for a backend that cannot work), its
    /// place in the list of backends, and its name there.
    struct Route: Sendable {
        var info: ContainerInfo
        var backend: (any SecretBackend)?
        var native: String
        var index: Int?
        /// Presumed for a keyring that creates containers while a later keyring might have the
        /// name too (internet passwords after generic ones): a key found there confirms it.
        var tentative = false
    }

    /// The container a write goes to: a keyring that creates containers answers without
    /// looking when no backend after it could have the name, since the hub's read of the key
    /// then tells whether anything is there.
    package func writeContainer(named name: String) throws -> ContainerInfo? {
        try route(name, presuming: true)?.info
    }

    /// Where a name leads, as ``routes()`` would place it, without listing.
    ///
    /// `name@backend` (the listing's name for a container an earlier backend has too) names
    /// its backend. A plain name goes to the first backend that has it, each asked for that
    /// name alone, else to the first backend that creates containers. A route found by asking
    /// is remembered for a moment, so the steps of one write (container, read, store) ask once.
    /// - Parameter presuming: let a keyring that creates containers answer without looking
    ///   (``ContainerInfo/exists`` then says only that writes go there).
    func route(_ name: String, presuming: Bool) throws -> Route? {
        if presuming, let known = recentRoutes.withLock({ $0.value(for: name) }) { return known }
        if let suffixed = suffixedRoute(name) { return remember(suffixed, name) }
        for (index, backend) in backends.enumerated() {
            if let reason = backend.unavailableReason {
                if backend.name == name {
                    return Route(
                        info: ContainerInfo(name, problem: reason, isWritable: false), backend: nil, native: name)
                }
                continue
            }
            if presuming && backend.createsContainers {
                let rivals = backends[(index + 1)...].filter {
                    $0.unavailableReason == nil && $0.couldHave(container: name)
                }
                // A folder of that name is checked at once (a keyring of the same name comes first);
                // a later keyring only when the key is not found here.
                if !rivals.contains(where: { $0 is SecretFilesBackend }) {
                    return Route(
                        info: ContainerInfo(name), backend: backend, native: name, index: index,
                        tentative: !rivals.isEmpty)
                }
            }
            // A backend that cannot answer now has nothing to route to; its own calls say why.
            guard backend.couldHave(container: name), let found = try? backend.container(named: name) else { continue }
            return remember(
                Route(info: found, backend: found.problem == nil ? backend : nil, native: name, index: index), name)
        }
        guard let index = backends.firstIndex(where: { $0.createsContainers && $0.unavailableReason == nil }) else {
            return nil
        }
        return remember(
            Route(info: ContainerInfo(name, exists: false), backend: backends[index], native: name, index: index), name)
    }

    /// A route found by asking, remembered for the next steps of the same request.
    private func remember(_ route: Route, _ name: String) -> Route {
        recentRoutes.withLock { $0.remember(route, for: name) }
        return route
    }

    /// Where a presumed route really leads, once the key was not found in the keyring
    /// presumed: the first backend that has the name, asked for it alone.
    func settled(_ route: Route, _ name: String) throws -> Route? {
        guard route.tentative else { return route }
        return try self.route(name, presuming: false)
    }

    /// Remembers that a key was found where the route presumed.
    func confirm(_ route: Route, _ name: String) {
        guard route.tentative else { return }
        var confirmed = route
        confirmed.tentative = false
        _ = remember(confirmed, name)
    }

    /// Forgets where a name led, once a write created its container.
    func forgetRoute(_ name: String) {
        recentRoutes.withLock { $0.forget { $0 == name } }
    }

    /// `base@backend` or `base@backend-2`: the backend that has `base` and that the listing
    /// shows under that name.
    private func suffixedRoute(_ name: String) -> Route? {
        guard let mark = name.lastIndex(of: "@"), mark > name.startIndex else { return nil }
        let base = String(name[..<mark])
        let tag = name[name.index(after: mark)...]
        guard backends.contains(where: { tag == $0.name || tag.hasPrefix($0.name + "-") }) else { return nil }
        var used: Set<String> = []
        for (index, backend) in backends.enumerated()
        where backend.unavailableReason == nil && backend.couldHave(container: base) {
            guard let found = try? backend.container(named: base) else { continue }
            let shown = Self.unique(base, backend.name, &used)
            if shown == name {
                var info = found
                info.name = shown
                return Route(info: info, backend: found.problem == nil ? backend : nil, native: base, index: index)
            }
        }
        return nil
    }

    /// The name the listing gives a container: its own, else `name@backend`, `name@backend-2`…
    static func unique(_ name: String, _ backend: String, _ used: inout Set<String>) -> String {
        var candidate = name
        var counter = 1
        while used.contains(candidate) {
            candidate = counter == 1 ? "\(name)@\(backend)" : "\(name)@\(backend)-\(counter)"
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// Every backend's containers, for a listing.
    func routes() -> [Route] {
        var routes: [Route] = []
        var used: Set<String> = []
        for backend in backends {
            if let reason = backend.unavailableReason {
                let name = Self.unique(backend.name, backend.name, &used)
                routes.append(
                    Route(info: ContainerInfo(name, problem: reason, isWritable: false), backend: nil, native: name))
                continue
            }
            do {
                for container in try backend.containers() {
                    var shown = container
                    shown.name = Self.unique(container.name, backend.name, &used)
                    routes.append(
                        Route(info: shown, backend: container.problem == nil ? backend : nil, native: container.name))
                }
            } catch {
                let name = Self.unique(backend.name, backend.name, &used)
                let message = (error as? JarvisError)?.message ?? String(describing: error)
                routes.append(
                    Route(info: ContainerInfo(name, problem: message, isWritable: false), backend: nil, native: name))
            }
        }
        return routes
    }
}
