/// What a container or key name really opens in a scanner's storage, so the hub's hide rules
/// and the system-container rule judge the thing served, not only the name asked for.
///
/// A folder-backed scanner reports the name a symbolic link resolves to (with `prod.json`
/// hidden, `current.json -> prod.json` is hidden too), whether its volume ignores case (then
/// `PROD.json` opens `prod.json`, and hide rules match without case), and whether a
/// container belongs to the operating system (Apple's own defaults domains).
public struct StoredNames: Sendable, Hashable {
    /// Other names the same stored thing has in this scanner: for a link inside the served
    /// folder, the name of its target. Empty for plain names.
    public var aliases: [String]
    /// Whether the storage treats names without regard to case (a case-insensitive volume).
    public var ignoresCase: Bool
    /// Whether the container belongs to the operating system rather than the app; hidden as
    /// if absent unless ``JarvisConfiguration/includesSystemContainers`` is set.
    public var isSystem: Bool

    /// Names that are only themselves: no aliases, case-sensitive, not the system's.
    public init(aliases: [String] = [], ignoresCase: Bool = false, isSystem: Bool = false) {
        self.aliases = aliases
        self.ignoresCase = ignoresCase
        self.isSystem = isSystem
    }
}
