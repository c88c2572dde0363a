/// The hub's one visibility rule for a scanner: the configuration's hide rules, applied to a
/// name and to everything it really opens (``StoredNames``), plus the system-container rule.
///
/// Every method that shows, reads or writes goes through it, so a hidden name answers
/// everywhere as one that does not exist.
package struct ScannerVisibility: Sendable {
    /// The configuration's rules for the scanner.
    package let rules: ScannerRules
    let scanner: any PreferenceScanner
    let includesSystem: Bool

    package init(scanner: any PreferenceScanner, configuration: JarvisConfiguration) {
        self.scanner = scanner
        rules = configuration.rules(for: scanner.id)
        includesSystem = configuration.includesSystemContainers
    }

    /// Whether the scanner is enabled.
    package var isEnabled: Bool { rules.isEnabled }

    /// Whether a container is shown.
    ///
    /// A name its own text hides is refused before the scanner is asked anything: asking
    /// touches storage (links, case, existence), and a hidden name that exists must cost what
    /// one that does not costs, so neither answers nor timing tell them apart.
    package func shows(container: String) -> Bool {
        guard rules.isEnabled,
            rules.shows(container: container) || Self.showsIgnoringCase(container: container, rules)
        else { return false }
        let names = scanner.storedNames(container: container, key: nil)
        if names.isSystem && !includesSystem { return false }
        let shown = { (name: String) in
            names.ignoresCase ? Self.showsIgnoringCase(container: name, rules) : rules.shows(container: name)
        }
        return shown(container) && names.aliases.allSatisfy(shown)
    }

    /// Whether a container is hidden only because it belongs to the system (for the count
    /// `ls` reports, with how to show them).
    package func hidesAsSystem(container: String) -> Bool {
        rules.isEnabled && !includesSystem && scanner.storedNames(container: container, key: nil).isSystem
    }

    /// Whether a key of a shown container is shown.
    package func shows(key: String, in container: String) -> Bool {
        guard rules.hasKeyRules else { return true }
        // Hidden whether or not the storage ignores case: decided without asking it.
        guard rules.shows(key: key) || Self.showsIgnoringCase(key: key, rules) else { return false }
        let names = scanner.storedNames(container: container, key: key)
        let shown = { (name: String) in
            names.ignoresCase ? Self.showsIgnoringCase(key: name, rules) : rules.shows(key: name)
        }
        return shown(key) && names.aliases.allSatisfy(shown)
    }

    private static func showsIgnoringCase(container: String, _ rules: ScannerRules) -> Bool {
        rules.foldingCase().shows(container: container.lowercased())
    }

    private static func showsIgnoringCase(key: String, _ rules: ScannerRules) -> Bool {
        rules.foldingCase().shows(key: key.lowercased())
    }
}

extension ScannerRules {
    /// Whether any key rule exists (so most listings skip asking about key names).
    var hasKeyRules: Bool { !includeKeys.isEmpty || !excludeKeys.isEmpty }

    /// The rules with every pattern lower-cased, for names compared without case.
    func foldingCase() -> ScannerRules {
        func fold(_ patterns: [GlobPattern]) -> [GlobPattern] {
            patterns.map { GlobPattern($0.description.lowercased()) }
        }
        return ScannerRules(
            isEnabled: isEnabled, includeContainers: fold(includeContainers),
            excludeContainers: fold(excludeContainers),
            includeKeys: fold(includeKeys), excludeKeys: fold(excludeKeys))
    }
}
