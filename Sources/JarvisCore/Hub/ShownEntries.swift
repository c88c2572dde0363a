/// The entries one answer shows, deciding each scanner, container and key once.
struct ShownEntries {
    let hub: JarvisHub
    private var scanners: [String: ScannerVisibility?] = [:]
    private var containers: [String: [String: Bool]] = [:]
    private var keys: [PreferenceAddress: Bool] = [:]

    init(hub: JarvisHub) {
        self.hub = hub
    }

    /// `entry` as shown (a secret's when its scanner keeps secrets); nil when the configuration
    /// hides its scanner, container or key, or no scanner of its id is registered now.
    mutating func entry(_ entry: JournalEntry) -> JournalEntry? {
        let address = entry.address
        let rules: ScannerVisibility?
        if let known = scanners[address.scanner] {
            rules = known
        } else {
            rules = hub.visibility(of: address.scanner)
            scanners[address.scanner] = .some(rules)
        }
        guard let rules, rules.isEnabled else { return nil }
        let container: Bool
        if let known = containers[address.scanner]?[address.container] {
            container = known
        } else {
            container = rules.shows(container: address.container)
            containers[address.scanner, default: [:]][address.container] = container
        }
        guard container else { return nil }
        let key: Bool
        if let known = keys[address] {
            key = known
        } else {
            key = rules.shows(key: address.key, in: address.container)
            keys[address] = key
        }
        guard key else { return nil }
        var entry = entry
        if rules.scanner.info.isSecret { entry.isSecret = true }
        return entry
    }
}
