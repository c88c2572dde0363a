/// What the change engine needs from the hub: the scanners with their rules, and items built
/// exactly as `list` and `get` build them, so masking and hiding apply to every event.
extension JarvisHub {
    /// A registered, enabled and available scanner with its visibility rules; nil otherwise.
    package func watchedScanner(_ id: String) -> (scanner: any PreferenceScanner, rules: ScannerVisibility)? {
        let (scanners, configuration) = snapshot()
        guard let scanner = scanners.first(where: { $0.id == id }),
            case let rules = ScannerVisibility(scanner: scanner, configuration: configuration), rules.isEnabled,
            scanner.info.unavailableReason == nil
        else { return nil }
        return (scanner, rules)
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
        let (scanners, configuration) = snapshot()
        guard let scanner = scanners.first(where: { $0.id == id }),
            case let rules = ScannerVisibility(scanner: scanner, configuration: configuration),
            rules.shows(container: container.name), rules.shows(key: entry.key, in: container.name)
        else { return nil }
        return item(entry, scanner: scanner, container: container, configuration: configuration, reveal: reveal)
    }
}
