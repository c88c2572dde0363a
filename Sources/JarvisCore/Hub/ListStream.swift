/// The items of a listing, made one at a time in the order `list` returns them.
///
/// An agent encodes a large answer while the client reads it: a stream holds the scanners'
/// own entry arrays (shared with their caches, not copied) and a position, so the memory of
/// a listing in flight does not grow with the number of items. ``JarvisHub/list(_:)`` is this
/// stream collected into an array.
///
/// Not thread-safe: one stream is read by one thread at a time (it may move between threads).
package struct ListStream: IteratorProtocol, Sendable {
    private let hub: JarvisHub
    private let query: ListQuery
    /// The scanners listed, each with its rules and the configuration they were made under.
    private let selected: [ScannerVisibility]
    private var scannerIndex = -1
    private var info: ScannerInfo?
    private var containers: [ContainerInfo] = []
    private var containerIndex = 0
    private var current: ContainerItems?
    /// The storage being read now, for whoever gives up waiting on it.
    package private(set) var progress = ListProgress()

    /// Where a page starts: the items up to and including this address are passed over
    /// without being made, so a page costs what it returns (see ``start(after:order:)``).
    private var start: (rank: Int, container: String, key: String)?
    /// The rank of each scanner in the order listings follow (registration order).
    private var order: [String: Int] = [:]
    /// Entries made into items or looked at by key so far (for tests of what a page costs).
    package private(set) var examined = 0

    /// Containers that could not be read, so far; complete once `next()` returned nil (or
    /// after ``finishProblems()``).
    package private(set) var problems: [ContainerSummary] = []
    /// How many containers of the scanners listed the configuration hides as the operating
    /// system's own, whatever the container filter, so far; complete when ``problems`` is.
    package private(set) var hiddenSystemContainers = 0

    init(hub: JarvisHub, query: ListQuery, selected: [ScannerVisibility]) {
        self.hub = hub
        self.query = query
        self.selected = selected
    }

    /// Starts the listing right after `address`: scanners ranked before it in `order` are
    /// not asked, earlier containers are not read, and inside its container the entries up
    /// to it are found by binary search, never made into items. Call before the first `next()`.
    /// - Parameters:
    ///   - address: the last item a client saw (a page's cursor); it need not exist any more.
    ///   - order: each scanner's rank in the listing's order; a scanner missing from it
    ///     comes after every ranked one.
    package mutating func start(after address: PreferenceAddress, order: [String: Int]) {
        self.order = order
        start = (order[address.scanner] ?? Int.max, address.container, address.key)
    }

    /// The next visible item, or nil when the listing is complete.
    package mutating func next() -> PreferenceItem? {
        let hub = hub
        let query = query
        while true {
            if let item = current?.next(hub: hub, query: query, examined: &examined) { return item }
            current = nil
            guard openNextContainer(readingItems: true) else { return nil }
        }
    }

    /// The scanner the next ``next()`` starts to ask (its info, then its containers) before it
    /// may make another item, when every item of the scanner before it was made; nil while
    /// the current scanner may still have items, or when none is left. A producer that makes
    /// a listing in steps ends a step here, so a scanner that never answers holds up its own
    /// step alone.
    package var scannerAhead: String? {
        guard current?.isExhausted ?? true, containerIndex >= containers.count,
            scannerIndex + 1 < selected.count
        else { return nil }
        return selected[scannerIndex + 1].scanner.id
    }

    /// The scanner the next ``next()`` reads from first: the current one while it has items or
    /// containers left, else ``scannerAhead``; nil when no scanner is left to read.
    package var scannerNext: String? {
        if let ahead = scannerAhead { return ahead }
        let inside = !(current?.isExhausted ?? true) || containerIndex < containers.count
        return inside && scannerIndex >= 0 && scannerIndex < selected.count ? selected[scannerIndex].scanner.id : nil
    }

    /// Passes over ``scannerAhead`` without asking it anything (it did not answer in time);
    /// returns its id, or nil when there is none. The caller reports it.
    package mutating func skipScannerAhead() -> String? {
        guard let skipped = scannerAhead else { return nil }
        scannerIndex += 1
        containers = []
        containerIndex = 0
        current = nil
        // The step left behind still reads into the old progress; this listing goes on with its own.
        progress = ListProgress()
        return skipped
    }

    /// Reads the containers not reached yet only to learn which of them cannot be read, so a
    /// page that stopped early still reports the problems of the whole listing.
    package mutating func finishProblems() {
        current = nil
        while openNextContainer(readingItems: false) {}
    }

    /// Moves to the next container that matches the query, recording those that cannot be
    /// read; false when every scanner is done.
    private mutating func openNextContainer(readingItems: Bool) -> Bool {
        while true {
            while containerIndex < containers.count {
                let container = containers[containerIndex]
                containerIndex += 1
                let chosen = selected[scannerIndex]
                var startKey: String?
                if let start, readingItems, rank(of: chosen.scanner.id) == start.rank {
                    if container.name < start.container { continue }
                    if container.name == start.container { startKey = start.key }
                }
                guard chosen.shows(container: container.name), query.container?.matches(container.name) ?? true,
                    !query.undeclared
                        || chosen.configuration.catalog.covers(scanner: chosen.scanner.id, container: container.name)
                else {
                    // Counted whatever the container filter: a count that followed the
                    // pattern would spell out hidden names one narrowed glob at a time.
                    if chosen.hidesAsSystem(container: container.name) {
                        hiddenSystemContainers += 1
                    }
                    continue
                }
                if let problem = container.problem {
                    problems.append(
                        ContainerSummary(
                            scanner: chosen.scanner.id, name: container.name, problem: problem, isWritable: false))
                    continue
                }
                progress.begin(scanner: chosen.scanner.id, container: container.name)
                do {
                    var entries = try chosen.scanner.read(ReadRequest(container: container.name))
                    guard readingItems else { continue }
                    // Scanners that cache their entries hand them out sorted; sorting only
                    // when needed keeps the stream from copying them.
                    if !Self.isSorted(entries) { entries.sort { $0.key < $1.key } }
                    current = ContainerItems(
                        entries: entries, scanner: chosen.scanner, container: container, rules: chosen,
                        configuration: chosen.configuration, info: info ?? chosen.scanner.info, query: query, hub: hub,
                        after: startKey)
                    return true
                } catch {
                    problems.append(
                        ContainerSummary(
                            scanner: chosen.scanner.id, name: container.name, problem: JarvisHub.describe(error),
                            isWritable: false))
                }
            }
            scannerIndex += 1
            containers = []
            containerIndex = 0
            guard scannerIndex < selected.count else { return false }
            let scanner = selected[scannerIndex].scanner
            if let start, readingItems {
                let rank = rank(of: scanner.id)
                // A scanner wholly before the page is not even asked for its containers.
                if rank < start.rank { continue }
                if rank > start.rank { self.start = nil }
            }
            // Read once per scanner: `info` may touch the disk (a folder-backed scanner checks
            // its folder), and asking per item made it a third of a 10,000-item list.
            progress.begin(scanner: scanner.id, container: "")
            let scannerInfo = scanner.info
            info = scannerInfo
            guard scannerInfo.unavailableReason == nil else { continue }
            do {
                containers = try scanner.containers().sorted { $0.name < $1.name }
            } catch {
                problems.append(
                    ContainerSummary(
                        scanner: scanner.id, name: "", problem: JarvisHub.describe(error), isWritable: false))
            }
        }
    }

    private func rank(of scanner: String) -> Int { order[scanner] ?? Int.max }

    private static func isSorted(_ entries: [ScannedEntry]) -> Bool {
        guard entries.count > 1 else { return true }
        for index in 1..<entries.count where entries[index].key < entries[index - 1].key { return false }
        return true
    }
}

/// One container's items: its visible entries merged in key order with the catalog's
/// declared keys that are not set.
private struct ContainerItems: Sendable {
    let entries: [ScannedEntry]
    let scanner: any PreferenceScanner
    let container: ContainerInfo
    let rules: ScannerVisibility
    let configuration: JarvisConfiguration
    let info: ScannerInfo
    let unset: [PreferenceItem]
    var entryIndex = 0
    var unsetIndex = 0

    /// Whether every entry and unset key was passed.
    var isExhausted: Bool { entryIndex >= entries.count && unsetIndex >= unset.count }

    /// - Parameter after: start right after this key (entries are sorted by key).
    init(
        entries: [ScannedEntry], scanner: any PreferenceScanner, container: ContainerInfo, rules: ScannerVisibility,
        configuration: JarvisConfiguration, info: ScannerInfo, query: ListQuery, hub: JarvisHub, after: String? = nil
    ) {
        self.entries = entries
        self.scanner = scanner
        self.container = container
        self.rules = rules
        self.configuration = configuration
        self.info = info
        unset =
            configuration.catalog.definitions.isEmpty || query.undeclared
            ? []
            : hub.unsetItems(
                present: Set(entries.map(\.key)), scanner: scanner, container: container,
                configuration: configuration, rules: rules.rules, query: query
            ).sorted { $0.address.key < $1.address.key }
        if let after {
            entryIndex = Self.firstIndex(in: entries, after: after)
            unsetIndex = unset.firstIndex { $0.address.key > after } ?? unset.count
        }
    }

    /// The first entry whose key sorts after `key`, by binary search.
    private static func firstIndex(in entries: [ScannedEntry], after key: String) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key <= key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    mutating func next(hub: JarvisHub, query: ListQuery, examined: inout Int) -> PreferenceItem? {
        while entryIndex < entries.count {
            let entry = entries[entryIndex]
            examined += 1
            guard rules.shows(key: entry.key, in: container.name), query.key?.matches(entry.key) ?? true,
                !query.undeclared || hub.isUndeclared(entry, scanner: scanner, in: container, configuration)
            else {
                entryIndex += 1
                continue
            }
            if unsetIndex < unset.count, unset[unsetIndex].address.key < entry.key {
                unsetIndex += 1
                return unset[unsetIndex - 1]
            }
            entryIndex += 1
            let found = hub.item(
                entry, scanner: scanner, container: container, configuration: configuration, reveal: query.reveal,
                info: info)
            hub.hear(
                found, at: found.address,
                stored: PreferenceAddress(scanner: scanner.id, container: container.name, key: entry.key))
            return found
        }
        guard unsetIndex < unset.count else { return nil }
        unsetIndex += 1
        return unset[unsetIndex - 1]
    }
}
