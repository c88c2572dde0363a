import JarvisCore
import JarvisRemote
import JarvisScanners

extension JarvisAgent {
    /// Starts an agent serving every defaults suite of the process (``DefaultsScanner/defaults(suites:includeSystemDomains:)``).
    ///
    /// The default lives in the `Jarvis` module, above both the agent and the scanners, so that
    /// the agent layer (and every client of it, such as the `jarvis` CLI) links no scanner and
    /// the scanners import no agent. A host writes `import Jarvis` and
    /// `JarvisAgent.start(configuration: .debug)`; one written before this module existed
    /// (`import JarvisRemote` and `JarvisScanners`) adds `import Jarvis` for this call.
    /// - Parameters:
    ///   - configuration: what may be shown and changed; `.production` makes it read-only.
    ///   - options: name, limits and runtime folder.
    /// - Throws: ``JarvisError`` when the configuration is invalid or the socket cannot be made.
    public static func start(
        configuration: JarvisConfiguration = .debug, options: Options = Options()
    ) throws(JarvisError) -> JarvisAgent {
        try start(configuration: configuration, scanners: [DefaultsScanner.defaults()], options: options)
    }
}
