/// The hub's one visibility rule for a scanner: the configuration's hide rules, applied to a
/// name and to everything it really opens (``StoredNames``), plus the system-container rule.
///
/// Every method that shows, reads or writes goes through it, so a hidden name answers
/// everywhere as one that does not exist.
///
/// A class made once per change of the hub's scanners or configuration: a request takes it
/// with one reference, where copying the rules, the scanner and the configuration it was
/// made under cost a `get` a retain and a release of each of their parts.
package final class ScannerVisibility: Sendable {
    /// The configuration's rules for the scanner.
    package let rules: ScannerRules
    let scanner: any PreferenceScanner
    /// The scanner's id, asked once.
    let id: String
    let includesSystem: Bool
    /// The configuration the rules were made under.
    let configuration: JarvisConfiguration

    package init(scanner: any PreferenceScanner, configuration: JarvisConfiguration) {
        self.scanner = scanner
        id = scanner.id
        rules = configuration.rules(for: id)
        includesSystem = configuration.includesSystemContainers
        self.configuration = configuration
    }

    /// Whether the scanner is enabled.
    package var isEnabled: Bool { rules.isEnabled }

    /// Whether a container is shown.
    ///
    /// A name its own text hides is refused before the scanner is asked anything: asking
    /// touches storage (links, case, existence), and a hidden name that exists must cost what
    /// one that does not costs, so neither answers nor timing tell them apart. A request that
    /// names one container goes through ``lookup(container:key:absent:checkpoint:)`` instead.
    /// - Parameter checkpoint: passed to the scanner (see ``ChangeCheckpoint``).
    package func shows(container: String, checkpoint: ChangeCheckpoint = .none) -> Bool {
        guard rules.isEnabled,
            rules.shows(container: container) || Self.showsIgnoringCase(container: container, rules)
        else { return false }
        let names = scanner.storedNames(container: container, key: nil, checkpoint: checkpoint)
        if names.isSystem && !includesSystem { return false }
        // The rules are read through `self` (one reference), never copied for the closure.
        let shown = { (name: String) in
            names.ignoresCase
                ? Self.showsIgnoringCase(container: name, self.rules) : self.rules.shows(container: name)
        }
        return shown(container) && names.aliases.allSatisfy(shown)
    }

    /// What a request that names one container (and one key) asks the scanner about.
    ///
    /// A shown name is asked about as itself. A hidden one, decided from its name before its
    /// storage is touched, is asked about as a stand-in that exists nowhere, through the same
    /// calls as a shown name that does not exist: so a hidden name costs what a missing one
    /// costs, whether or not it exists, and neither answers nor timing tell them apart. The
    /// caller makes the same calls on ``NamedLookup/container`` and ``NamedLookup/key`` either
    /// way, and answers a hidden name as missing whatever they return.
    /// - Parameter absent: a name no container or key has, made once per hub (see
    ///   ``JarvisHub/absentName``).
    package func lookup(
        container: String, key: String?, absent: String, checkpoint: ChangeCheckpoint = .none
    ) -> NamedLookup {
        var result = NamedLookup(container: container, key: key ?? "", isShown: true)
        if !shows(container: container, checkpoint: checkpoint) {
            result = NamedLookup(container: Self.standIn(for: container, absent: absent), key: result.key, isShown: false)
            // What `shows(container:)` costs a shown name: its stored names, from storage.
            _ = scanner.storedNames(container: result.container, key: nil, checkpoint: checkpoint)
        }
        if let key, !shows(key: key, in: result.container, checkpoint: checkpoint) {
            result.key = Self.standIn(for: key, absent: absent)
            result.isShown = false
            // What `shows(key:in:)` costs a shown key.
            if rules.hasKeyRules {
                _ = scanner.storedNames(container: result.container, key: result.key, checkpoint: checkpoint)
            }
        }
        return result
    }

    /// `absent` with `name`'s extension, so that a scanner that serves only some extensions
    /// (`*.json`) looks it up as it would look up `name`, and as long as `name` (looking up a
    /// longer name costs more), though never shorter than 12 characters of `absent`, so that
    /// nobody can guess it.
    static func standIn(for name: String, absent: String) -> String {
        let last = name[(name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex)...]
        let dot = last.lastIndex(of: ".").flatMap { $0 == last.startIndex ? nil : $0 }
        let suffix = dot.map { name[$0...] } ?? ""
        // In bytes: what a path costs. `absent` is ASCII.
        let length = max(name.utf8.count - suffix.utf8.count, 12)
        var stem = absent
        while stem.utf8.count < length { stem += absent }
        return String(stem.prefix(length) + suffix)
    }

    /// Whether a container is hidden only because it belongs to the system (for the count
    /// `ls` reports, with how to show them).
    package func hidesAsSystem(container: String) -> Bool {
        rules.isEnabled && !includesSystem && scanner.storedNames(container: container, key: nil).isSystem
    }

    /// Whether a key of a shown container is shown.
    package func shows(key: String, in container: String, checkpoint: ChangeCheckpoint = .none) -> Bool {
        guard rules.hasKeyRules else { return true }
        // Hidden whether or not the storage ignores case: decided without asking it.
        guard rules.shows(key: key) || Self.showsIgnoringCase(key: key, rules) else { return false }
        let names = scanner.storedNames(container: container, key: key, checkpoint: checkpoint)
        let shown = { (name: String) in
            names.ignoresCase ? Self.showsIgnoringCase(key: name, self.rules) : self.rules.shows(key: name)
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
