/// What the change engine needs from the hub: the scanners with their rules, and items built
/// exactly as `list` and `get` build them, so masking and hiding apply to every event.
extension JarvisHub {
    /// A registered, enabled and available scanner with its visibility rules; nil otherwise.
    package func watchedScanner(_ id: String) -> (scanner: any PreferenceScanner, rules: ScannerVisibility)? {
        guard let rules = visibility(of: id), rules.isEnabled, rules.scanner.info.unavailableReason == nil else {
            return nil
        }
        return (rules.scanner, rules)
    }

    /// The ids of every enabled scanner, in registration order.
    package func enabledScannerIDs() -> [String] {
        scanners().map(\.id)
    }

    /// The item a watcher sees for an entry, or nil when the configuration now hides it.
    /// - Parameter reveal: the watcher asked for secrets; honoured only where reveal is allowed.
    package func watchedItem(
        _ entry: ScannedEntry, scanner id: String, container: ContainerInfo, reveal: Bool
    ) -> PreferenceItem? {
        guard let rules = visibility(of: id), rules.shows(container: container.name),
            rules.shows(key: entry.key, in: container.name)
        else { return nil }
        let served = item(
            entry, scanner: rules.scanner, container: container, configuration: rules.configuration, reveal: reveal)
        // A value deeper than a client could write back is never served (a host's own scanner
        // may read one); `list` and `get` name it as a problem, a change just leaves it out.
        if let depth = served.value?.depth, depth > PreferenceValue.maxDepth { return nil }
        return served
    }

    /// The containers of scanner `id` the configuration shows; nil when the scanner is not
    /// watched or cannot list them now.
    package func watchedContainers(_ id: String) -> [ContainerInfo]? {
        guard let (scanner, rules) = watchedScanner(id), let containers = try? scanner.containers() else { return nil }
        return containers.filter { rules.shows(container: $0.name) }
    }

    /// Container `name` of scanner `id` as a watcher sees it, its hidden keys left out.
    ///
    /// - Parameter listing: the visible containers from ``watchedContainers(_:)``, when the
    ///   caller listed them; otherwise the container is looked up by name.
    /// - Returns: `.some(nil)` when the container does not exist (any more); nil when there is
    ///   nothing to compare: the container is hidden, has a problem, or could not be read.
    package func watchedSnapshot(
        _ id: String, container name: String, listing: [String: ContainerInfo]?
    ) -> ContainerSnapshot?? {
        guard let (scanner, rules) = watchedScanner(id), rules.shows(container: name) else { return nil }
        let info: ContainerInfo
        if let listing {
            guard let listed = listing[name] else { return .some(nil) }
            info = listed
        } else {
            let found: ContainerInfo?
            do {
                found = try scanner.container(named: name)
            } catch {
                return nil
            }
            guard let found, found.exists else { return .some(nil) }
            info = found
        }
        guard info.problem == nil, let entries = try? scanner.read(ReadRequest(container: name)) else { return nil }
        return .some(ContainerSnapshot(info: info, entries: entries.filter { rules.shows(key: $0.key, in: name) }))
    }
}
