import Foundation

/// The agent's core: holds the registered scanners and applies the configuration to every
/// read and every write, whatever transport the request came from.
///
/// Thread-safe; every method may be called from any thread and blocks only for the scanner
/// I/O it needs. Writes are serialized so that an expected-revision check and the write that
/// follows it cannot interleave with another write.
public final class JarvisHub: Sendable {
    private struct State {
        var scanners: [any PreferenceScanner] = [] {
            didSet { rebuildRules() }
        }
        var configuration: JarvisConfiguration {
            didSet { rebuildRules() }
        }
        /// Each scanner with its rules under the configuration, in registration order: made
        /// when either changes rather than for every request.
        private(set) var rules: [ScannerVisibility] = []

        init(configuration: JarvisConfiguration) {
            self.configuration = configuration
        }

        private mutating func rebuildRules() {
            rules = scanners.map { ScannerVisibility(scanner: $0, configuration: configuration) }
        }
    }

    private let state: Locked<State>
    /// Orders write transactions per container (see ``write(_:_:expectedRevision:known:)``):
    /// writes to one container run one at a time, writes to different containers never wait
    /// for each other's I/O.
    let writes = KeyedLock()
    package let masker = SecretMasker()
    /// Told of every key a scanner stored, as soon as it returns and still under the
    /// container's write lock (so one container's notices come in the order written), never
    /// for a refused or failed write: watchers see clients' writes at once.
    package let writeObservers = ObserverList<WriteNotice>()
    /// Every change written through the hub or heard by the agent's change engine, for
    /// history, undo and restore (see ``ChangeJournal``).
    package let journal = ChangeJournal()
    /// The queues a request that names only a container asks each scanner on (see
    /// ``owner(ofContainer:creating:writing:wait:)``).
    let lookups = ScannerLookups()
    /// A name no container or key has, new for every hub so nobody can create it: what a
    /// request for a hidden name asks the scanner about instead (see
    /// ``ScannerVisibility/lookup(container:key:absent:)``). Made here, not on first use, so
    /// the first hidden request makes no call a missing one does not make.
    let absentName = UUID().uuidString.lowercased().filter { $0 != "-" }

    /// Creates a hub with a configuration and no scanners.
    public init(configuration: JarvisConfiguration = .debug) {
        state = Locked(State(configuration: configuration))
    }

    /// The configuration in force.
    public var configuration: JarvisConfiguration {
        state.withLock { $0.configuration }
    }

    /// Replaces the configuration; it applies to the next request.
    /// - Throws: ``JarvisError`` when the configuration is inconsistent (see `validate()`).
    public func update(configuration: JarvisConfiguration) throws(JarvisError) {
        try configuration.validate()
        state.withLock { $0.configuration = configuration }
    }

    /// Adds a scanner; one with the same id is replaced.
    public func register(_ scanner: any PreferenceScanner) {
        state.withLock { state in
            if let index = state.scanners.firstIndex(where: { $0.id == scanner.id }) {
                state.scanners[index] = scanner
            } else {
                state.scanners.append(scanner)
            }
        }
    }

    /// The enabled scanners, in registration order.
    public func scanners() -> [ScannerSummary] {
        enabledRules().map { rules in
            let scanner = rules.scanner
            let info = scanner.info
            return ScannerSummary(
                id: scanner.id, info: info,
                isWritable: rules.configuration.editingEnabled && info.isWritable && info.unavailableReason == nil,
                valueTypes: scanner.valueTypes)
        }
    }

    /// What the journal kept across restarts is chosen by: each registered scanner's id and
    /// place (``PreferenceScanner/location``; `program` for one whose values live in the
    /// program), enabled or not, so other hide rules after a restart find the same journal.
    package func journalPlaces(program: String) -> [String] {
        state.withLock { $0.scanners }.map { scanner in "\(scanner.id)=\(scanner.location ?? "program \(program)")" }
    }

    /// The ids of the enabled scanners, in order, asking none of them anything.
    package func scannerIDs() -> [String] {
        enabledRules().map(\.id)
    }

    /// The visible containers of one scanner, or of all.
    /// - Throws: ``JarvisError`` `.notFound` for an unknown or disabled scanner.
    public func containers(scanner id: String? = nil) throws(JarvisError) -> [ContainerSummary] {
        var result: [ContainerSummary] = []
        for rules in try selected(id) {
            let scanner = rules.scanner
            for container in (try? scanner.containers()) ?? [] where rules.shows(container: container.name) {
                result.append(
                    ContainerSummary(
                        scanner: scanner.id, name: container.name, problem: container.problem,
                        isWritable: rules.configuration.editingEnabled && scanner.info.isWritable
                            && container.isWritable))
            }
        }
        return result
    }

    /// Every visible item matching the query.
    /// - Throws: ``JarvisError`` `.notFound` for an unknown or disabled scanner.
    public func list(_ query: ListQuery = ListQuery()) throws(JarvisError) -> ListResult {
        var stream = try listStream(query)
        var items: [PreferenceItem] = []
        while let item = stream.next() { items.append(item) }
        var result = ListResult(items: items, problems: stream.problems)
        result.hiddenSystemContainers = stream.hiddenSystemContainers
        return result
    }

    /// The items of `list`, made one at a time (see ``ListStream``).
    /// - Throws: ``JarvisError`` `.notFound` for an unknown or disabled scanner.
    package func listStream(_ query: ListQuery = ListQuery()) throws(JarvisError) -> ListStream {
        if query.undeclared && configuration.catalog.isEmpty {
            throw JarvisError(
                .invalidParams, "this agent's host gave no key catalog, so no key counts as undeclared")
        }
        return ListStream(hub: self, query: query, selected: try selected(query.scanner))
    }

    /// One item.
    /// - Parameter reveal: ask for a secret's value; refused with `.unauthorized` unless the
    ///   configuration allows reveal.
    /// - Throws: ``JarvisError`` `.notFound` when the item does not exist or is hidden.
    public func get(_ address: PreferenceAddress, reveal: Bool = false) throws(JarvisError) -> PreferenceItem {
        let (rules, container, info, lookup) = try resolve(address)
        let scanner = rules.scanner
        if reveal && info.isSecret && !rules.configuration.revealEnabled {
            throw Self.revealRefused(rules.configuration)
        }
        // A hidden name makes the same calls as a missing one (on its stand-in) and answers as one.
        let asked = PreferenceAddress(scanner: address.scanner, container: lookup.container, key: lookup.key)
        let read = try read(asked, scanner: scanner)
        // A key the journal holds that is gone now was removed outside the agent.
        if read == nil, lookup.isShown { hear(nil, at: address, stored: asked) }
        guard let entry = read, lookup.isShown else {
            // A declared key is shown unset only where it could be stored: the container
            // exists or can be created (asked only then, so a plain `get` lists nothing).
            let found = try? scanner.container(named: asked.container)
            let unset = unsetItem(address, scanner: scanner, container: container, configuration: rules.configuration)
            guard lookup.isShown else { throw .noKey(address.key, in: address.container) }
            if let unset, found != nil { return unset }
            // A container the scanner knows but cannot read (or does not serve) says why.
            if let problem = found?.problem {
                throw JarvisError(.notFound, "no key '\(address.key)' in '\(address.container)': \(problem)")
            }
            throw .noKey(address.key, in: address.container)
        }
        let found = item(
            entry, scanner: scanner, container: container, configuration: rules.configuration, reveal: reveal,
            info: info)
        hear(found, at: address, stored: asked)
        return found
    }

    // MARK: - Internals shared with the write path

    func isUndeclared(
        _ entry: ScannedEntry, scanner: any PreferenceScanner, in container: ContainerInfo,
        _ configuration: JarvisConfiguration
    ) -> Bool {
        entry.layer == .stored
            && !configuration.catalog.declares(
                PreferenceAddress(scanner: scanner.id, container: container.name, key: entry.key))
    }

    /// The rules of scanner `id` (nil when none is registered) and the configuration.
    func rules(for id: String) -> (ScannerVisibility?, JarvisConfiguration) {
        state.withLock { state in (state.rules.first { $0.id == id }, state.configuration) }
    }

    /// The rules of scanner `id`, which carry the configuration they were made under; nil
    /// when none is registered.
    func visibility(of id: String) -> ScannerVisibility? {
        state.withLock { state in state.rules.first { $0.id == id } }
    }

    /// The enabled scanners' rules, in registration order; each carries its scanner and the
    /// configuration it was made under.
    func enabledRules() -> [ScannerVisibility] {
        state.withLock { $0.rules }.filter(\.isEnabled)
    }

    /// The enabled scanners' rules, or scanner `id`'s alone.
    private func selected(_ id: String?) throws(JarvisError) -> [ScannerVisibility] {
        guard let id else { return enabledRules() }
        let chosen = enabledRules().filter { $0.id == id }
        if chosen.isEmpty { throw .noScanner(id) }
        return chosen
    }

    /// The scanner's rules (which carry the scanner and the configuration they were made
    /// under) and the container of an address for a read, the names to read after the
    /// visibility rules, and the scanner's info as asked once (it may touch storage).
    ///
    /// The scanner is not asked for its containers (listing a folder on every `get` would
    /// dominate its cost): a broken container fails in `read` instead, and a missing one
    /// reads as empty. A hidden one is not refused here: the caller reads its stand-in (see
    /// ``ScannerVisibility/lookup(container:key:absent:)``) and answers as for a missing one.
    ///
    /// - Parameter checkpoint: passed to the scanner's stored names (see ``ChangeCheckpoint``).
    func resolve(_ address: PreferenceAddress, checkpoint: ChangeCheckpoint = .none) throws(JarvisError) -> (
        ScannerVisibility, ContainerInfo, ScannerInfo, NamedLookup
    ) {
        guard let rules = visibility(of: address.scanner), rules.isEnabled else {
            throw .noScanner(address.scanner)
        }
        let scanner = rules.scanner
        let info = scanner.info
        if let reason = info.unavailableReason {
            throw JarvisError(.unavailable, "scanner '\(scanner.id)' is unavailable: \(reason)")
        }
        let lookup = rules.lookup(
            container: address.container, key: address.key, absent: absentName, checkpoint: checkpoint)
        return (rules, ContainerInfo(address.container), info, lookup)
    }

    /// The one scanner that has a visible container of this name, for a request that names
    /// only the container: each enabled scanner is asked for that container alone, never
    /// for all of its containers, all of them at once (``ScannerLookups``).
    /// - Returns: the scanner's id and the container as it answered, which a write that
    ///   follows may pass on instead of asking again.
    /// - Throws: ``JarvisError`` `.notFound` when no scanner has it (a hidden one included),
    ///   `.invalidParams` when several do, `.unavailable` when a scanner did not answer within
    ///   `wait` and its answer could change the outcome: nothing found elsewhere, or a write
    ///   (which must not guess between two containers of one name).
    /// - Parameters:
    ///   - creating: the request is a `set` of a whole key, which would create a missing
    ///     container in a scanner that creates them: the error then names those scanners
    ///     (and only then, so no answer offers what cannot be done).
    ///   - writing: the request changes what it finds; a read takes the one container found
    ///     when the scanners that did not answer cannot be asked.
    ///   - wait: how long the scanners are waited for.
    package func owner(
        ofContainer name: String, creating: Bool = false, writing: Bool = false, wait: Duration = .seconds(5)
    ) throws(JarvisError) -> (scanner: String, container: ContainerInfo) {
        struct Answer: Sendable {
            var found: ContainerInfo?
            var creates = false
        }
        let rules = enabledRules()
        let absent = absentName
        let answers = lookups.ask(rules.map(\.id), wait: wait) { id in
            guard let rules = rules.first(where: { $0.id == id }) else { return Answer() }
            let scanner = rules.scanner
            // A hidden name is looked up as its stand-in, so it costs what a missing one costs
            // and answers what a missing one answers.
            let lookup = rules.lookup(container: name, key: nil, absent: absent)
            let info = scanner.info
            guard info.unavailableReason == nil, let found = try? scanner.container(named: lookup.container) else {
                return Answer()
            }
            // Scanners that would create the container when a write names them: the only
            // ones a hint may offer (a JSON file is never created).
            let creates = !found.exists && found.isWritable && info.isWritable && rules.configuration.editingEnabled
            return Answer(found: found.exists && lookup.isShown ? found : nil, creates: creates)
        }
        let owners = rules.compactMap { rules in answers[rules.id]?.found.map { (rules.id, $0) } }
        let silent = rules.map(\.id).filter { answers[$0] == nil }
        let silence =
            silent.isEmpty
            ? ""
            : "scanner\(silent.count == 1 ? "" : "s") \(silent.joined(separator: ", ")) \(wait.silence)"
        switch owners.count {
        case 1 where silent.isEmpty || !writing:
            return owners[0]
        case 1:
            throw JarvisError(
                .unavailable,
                "container '\(name)' is in \(owners[0].0), but \(silence), so whether it holds one too is not known; name the scanner: \(owners[0].0):\(name)"
            )
        case 0 where !silent.isEmpty:
            throw JarvisError(
                .unavailable,
                "no container '\(name)' in the scanners that answered; \(silence): try again, or name its scanner")
        case 0:
            let creators = creating ? rules.map(\.id).filter { answers[$0]?.creates == true } : []
            let create =
                creators.isEmpty
                ? ""
                : "; to create it, name its scanner: "
                    + creators.sorted().map { "\($0):\(name)" }.joined(separator: " or ")
            throw JarvisError(
                .notFound, "no container '\(name)' in any scanner (run `jarvis ls` to see what exists)\(create)")
        default:
            throw JarvisError(
                .invalidParams,
                "container '\(name)' exists in scanners \(owners.map(\.0).sorted().joined(separator: ", ")); add \"scanner\""
            )
        }
    }

    func read(_ address: PreferenceAddress, scanner: any PreferenceScanner) throws(JarvisError) -> ScannedEntry? {
        do {
            return try scanner.read(key: address.key, in: address.container)
        } catch {
            throw Self.wrap(error)
        }
    }

    func item(
        _ entry: ScannedEntry,
        scanner: any PreferenceScanner,
        container: ContainerInfo,
        configuration: JarvisConfiguration,
        reveal: Bool,
        info known: ScannerInfo? = nil
    ) -> PreferenceItem {
        let info = known ?? scanner.info
        let address = PreferenceAddress(scanner: scanner.id, container: container.name, key: entry.key)
        let writable =
            configuration.editingEnabled && info.isWritable && container.isWritable && entry.isWritable
            && entry.isExact
        let revealed = reveal && configuration.revealEnabled
        let masked = info.isSecret && !revealed
        let catalog =
            configuration.catalog.isEmpty
            ? nil : catalogNote(for: address, configuration: configuration, secret: masked)
        // Built in one initialisation: members assigned after it made the item be copied.
        return PreferenceItem(
            address: address, type: entry.value.type, value: masked ? nil : entry.value,
            revision: info.isSecret ? masker.revision(of: entry.value, at: address) : Revision(of: entry.value),
            layer: entry.layer, encoding: entry.encoding, isWritable: writable,
            mask: masked ? masker.mask(entry.value, at: address) : nil, catalog: catalog,
            isPlaceholder: !entry.isExact)
    }

    package static func revealRefused(_ configuration: JarvisConfiguration) -> JarvisError {
        configuration.isProduction
            ? JarvisError(.unauthorized, "this agent runs the production configuration, which never reveals secrets")
            : JarvisError(
                .unauthorized,
                "revealing secrets is off for this agent; enable allowsReveal (jarvis-agent --allow-reveal)")
    }

    static func wrap(_ error: any Error) -> JarvisError {
        if let error = error as? JarvisError { return error }
        return JarvisError(.storage, describe(error))
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? JarvisError { return error.message }
        return String(describing: error)
    }
}
