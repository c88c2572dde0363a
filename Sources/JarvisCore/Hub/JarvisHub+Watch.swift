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

    /// Whether the configuration shows container `name` of scanner `id` now (a replayed
    /// event is checked again, as its items are).
    package func showsWatched(_ id: String, container name: String) -> Bool {
        visibility(of: id)?.shows(container: name) ?? false
    }

    /// The containers of scanner `id` the configuration shows; nil when the scanner is not
    /// watched or cannot list them now.
    package func watchedContainers(_ id: String) -> [ContainerInfo]? {
        guard let (scanner, rules) = watchedScanner(id), let containers = try? scanner.containers() else { return nil }
        return containers.filter { rules.shows(container: $0.name) }
    }

    /// Container `name` of scanner `id` as a watcher sees it, its hidden keys left out.
    ///
    /// A container with a problem, or whose read fails, is ``WatchedRead/unreadable(_:)``
    /// with the text `list` shows in its `problems`, so a watcher learns of it as a person
    /// running `ls` would.
    /// - Parameter listing: the visible containers from ``watchedContainers(_:)``, when the
    ///   caller listed them; otherwise the container is looked up by name.
    package func watchedRead(_ id: String, container name: String, listing: [String: ContainerInfo]?) -> WatchedRead {
        guard let (scanner, rules) = watchedScanner(id), rules.shows(container: name) else { return .hidden }
        let info: ContainerInfo
        if let listing {
            guard let listed = listing[name] else { return .missing }
            info = listed
        } else {
            let found: ContainerInfo?
            do {
                found = try scanner.container(named: name)
            } catch {
                return .unreadable(Self.describe(error))
            }
            guard let found, found.exists else { return .missing }
            info = found
        }
        if let problem = info.problem { return .unreadable(problem) }
        do {
            let entries = try scanner.read(ReadRequest(container: name))
            return .read(ContainerSnapshot(info: info, entries: entries.filter { rules.shows(key: $0.key, in: name) }))
        } catch let error as JarvisError where error.code == .notFound {
            // Gone between the lookup and the read.
            return .missing
        } catch {
            return .unreadable(Self.describe(error))
        }
    }

    /// The version of container `name` of scanner `id` now (``PreferenceScanner/version(of:)``);
    /// nil when the scanner cannot tell, or does not show the container.
    package func watchedVersion(_ id: String, container name: String) -> ContainerVersion? {
        guard let (scanner, rules) = watchedScanner(id), rules.shows(container: name) else { return nil }
        return scanner.version(of: name)
    }

    /// Some keys of container `name` as a watcher sees them: the entry of each one stored and
    /// shown, a key left out when absent or hidden; nil when they cannot be read now (the
    /// caller then reads the container whole, and learns why).
    package func watchedEntries(_ id: String, container name: String, keys: Set<String>) -> [String: ScannedEntry]? {
        guard let (scanner, rules) = watchedScanner(id), rules.shows(container: name) else { return nil }
        guard let entries = try? scanner.read(ReadRequest(container: name, keys: keys.sorted())) else { return nil }
        var found: [String: ScannedEntry] = [:]
        // A scanner may return more than the keys asked for.
        for entry in entries where keys.contains(entry.key) && rules.shows(key: entry.key, in: name) {
            found[entry.key] = entry
        }
        return found
    }
}
