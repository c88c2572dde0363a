/// The privacy configuration: what the agent may show and whether it may change anything.
///
/// It is a plain value, applied by the hub to every read and every write, whatever the
/// transport. Start from a preset and adjust:
///
/// ```swift
/// var configuration = JarvisConfiguration.debug
/// configuration.hide(containers: "private_data", in: "defaults")
/// ```
public struct JarvisConfiguration: Sendable, Hashable {
    /// Whether this is the production preset. Production forces editing and reveal off,
    /// whatever the other fields say, so a mistaken flag cannot open a shipped app.
    public var isProduction: Bool
    /// Whether clients may set and delete values.
    public var allowsEditing: Bool
    /// Whether a client may ask to see a secret's value (`reveal: true`).
    public var allowsReveal: Bool
    /// Rules for every scanner, combined with each scanner's own.
    public var allScanners: ScannerRules
    /// Rules per scanner id.
    public var scanners: [String: ScannerRules]
    /// The keys the host declares (types, defaults, allowed values); empty by default.
    public var catalog = KeyCatalog()
    /// Whether containers of the operating system are shown (Apple's own defaults domains:
    /// `com.apple.*`, `.GlobalPreferences*`, `NSGlobalDomain`). Off by default: they are then
    /// hidden from every method, as if absent. `jarvis-agent --system-domains` turns it on.
    public var includesSystemContainers = false

    /// Creates a configuration; prefer starting from ``debug`` or ``production``.
    public init(
        isProduction: Bool = false,
        allowsEditing: Bool = true,
        allowsReveal: Bool = false,
        allScanners: ScannerRules = ScannerRules(),
        scanners: [String: ScannerRules] = [:]
    ) {
        self.isProduction = isProduction
        self.allowsEditing = allowsEditing
        self.allowsReveal = allowsReveal
        self.allScanners = allScanners
        self.scanners = scanners
    }

    /// For development builds: everything visible, editing on, secrets masked.
    public static let debug = JarvisConfiguration()

    /// For builds that ship: read-only, secrets never revealed. The agent enforces it.
    public static let production = JarvisConfiguration(isProduction: true, allowsEditing: false)

    /// Whether set and delete are allowed, after the production lock.
    public var editingEnabled: Bool { allowsEditing && !isProduction }

    /// Whether reveal is allowed, after the production lock.
    public var revealEnabled: Bool { allowsReveal && !isProduction }

    /// The rules in force for one scanner.
    public func rules(for scanner: String) -> ScannerRules {
        guard let own = scanners[scanner] else { return allScanners }
        return own.combined(with: allScanners)
    }

    /// Hides containers matching `pattern` in one scanner (or every scanner when nil).
    public mutating func hide(containers pattern: GlobPattern, in scanner: String? = nil) {
        edit(scanner) { $0.excludeContainers.append(pattern) }
    }

    /// Hides keys matching `pattern` in one scanner (or every scanner when nil).
    public mutating func hide(keys pattern: GlobPattern, in scanner: String? = nil) {
        edit(scanner) { $0.excludeKeys.append(pattern) }
    }

    /// Turns a scanner off entirely.
    public mutating func disable(scanner: String) {
        edit(scanner) { $0.isEnabled = false }
    }

    /// Checks the configuration before an agent starts with it.
    /// - Throws: ``JarvisError`` when production is asked to reveal secrets or to edit.
    public func validate() throws(JarvisError) {
        if isProduction && allowsReveal {
            throw JarvisError(
                .invalidParams, "the production configuration refuses to reveal secrets; remove allowsReveal")
        }
        if isProduction && allowsEditing {
            throw JarvisError(.invalidParams, "the production configuration refuses editing; remove allowsEditing")
        }
        try catalog.validate()
    }

    private mutating func edit(_ scanner: String?, _ change: (inout ScannerRules) -> Void) {
        if let scanner {
            change(&scanners[scanner, default: ScannerRules()])
        } else {
            change(&allScanners)
        }
    }
}
