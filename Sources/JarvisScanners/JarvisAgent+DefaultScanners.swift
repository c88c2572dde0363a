import JarvisCore
import JarvisRemote

extension JarvisAgent {
    /// Starts an agent serving every defaults suite of the process (``DefaultsScanner/defaults(suites:includeSystemDomains:)``).
    ///
    /// The default lives here, beside the scanners, so that the agent layer (and every client
    /// of it, such as the `jarvis` CLI) links no scanner; a host that imports `JarvisRemote`
    /// and `JarvisScanners` writes `JarvisAgent.start(configuration: .debug)` as before.
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
