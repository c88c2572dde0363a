import JarvisCore

/// Which backend a container name leads to: from every backend's list for a listing, and by
/// asking for the one name otherwise.
extension SecretsScanner: PresumedContainers {
    /// Where a shown container lives: its backend (nil for a backend that cannot work) and
    /// its name there.
    struct Route {
        var info: ContainerInfo
        var backend: (any SecretBackend)?
        var native: String
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
    /// name alone, else to the first backend that creates containers.
    /// - Parameter presuming: let a keyring that creates containers answer without looking
    ///   (``ContainerInfo/exists`` then says only that writes go there).
    func route(_ name: String, presuming: Bool) throws -> Route? {
        if let suffixed = suffixedRoute(name) { return suffixed }
        for (index, backend) in backends.enumerated() {
            if let reason = backend.unavailableReason {
                if backend.name == name {
                    return Route(
                        info: ContainerInfo(name, problem: reason, isWritable: false), backend: nil, native: name)
                }
                continue
            }
            if presuming && backend.createsContainers
                && !backends[(index + 1)...].contains(where: { $0.couldHave(container: name) })
            {
                return Route(info: ContainerInfo(name), backend: backend, native: name)
            }
            // A backend that cannot answer now has nothing to route to; its own calls say why.
            guard backend.couldHave(container: name), let found = try? backend.container(named: name) else { continue }
            return Route(info: found, backend: found.problem == nil ? backend : nil, native: name)
        }
        guard let creator = backends.first(where: { $0.createsContainers && $0.unavailableReason == nil }) else {
            return nil
        }
        return Route(info: ContainerInfo(name, exists: false), backend: creator, native: name)
    }

    /// `base@backend` or `base@backend-2`: the backend that has `base` and that the listing
    /// shows under that name.
    private func suffixedRoute(_ name: String) -> Route? {
        guard let mark = name.lastIndex(of: "@"), mark > name.startIndex else { return nil }
        let base = String(name[..<mark])
        let tag = name[name.index(after: mark)...]
        guard backends.contains(where: { tag == $0.name || tag.hasPrefix($0.name + "-") }) else { return nil }
        var used: Set<String> = []
        for backend in backends where backend.unavailableReason == nil && backend.couldHave(container: base) {
            guard let found = try? backend.container(named: base) else { continue }
            let shown = Self.unique(base, backend.name, &used)
            if shown == name {
                var info = found
                info.name = shown
                return Route(info: info, backend: found.problem == nil ? backend : nil, native: base)
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
