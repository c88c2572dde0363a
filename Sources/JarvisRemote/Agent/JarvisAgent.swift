import Foundation
import JarvisCore
import JarvisScanners

/// The agent a host embeds: a hub of scanners served on a Unix domain socket, and a discovery
/// file so that `jarvis` finds it.
///
/// ```swift
/// let agent = try JarvisAgent.start(configuration: .debug)
/// ```
///
/// All work happens on the agent's own threads; the host's main thread is never used.
/// Stop it with ``stop()`` (also safe to never call: a dead process's files are cleaned up
/// by the next client that looks).
public final class JarvisAgent: Sendable {
    /// Knobs of the agent itself, apart from the privacy configuration.
    public struct Options: Sendable, Hashable {
        /// The name clients see; by default the executable's.
        public var name: String?
        /// The longest request line accepted, in bytes.
        public var maxLineLength: Int
        /// The most clients connected at once.
        public var maxConnections: Int
        /// Where to put the discovery file and socket; by default ``RuntimeDirectory``'s rule.
        public var runtimeDirectory: URL?

        /// Creates options; the defaults suit almost every host.
        public init(name: String? = nil, maxLineLength: Int = 1 << 20, maxConnections: Int = 64, runtimeDirectory: URL? = nil) {
            self.name = name
            self.maxLineLength = maxLineLength
            self.maxConnections = maxConnections
            self.runtimeDirectory = runtimeDirectory
        }
    }

    /// The hub: register more scanners here, or call it directly in tests.
    public let hub: JarvisHub
    /// The Unix socket clients connect to.
    public let socketPath: String
    /// What the discovery file says.
    public let record: AgentRecord
    private let server: LineServer
    private let recordURL: URL

    /// Starts an agent serving the given scanners.
    /// - Parameters:
    ///   - configuration: what may be shown and changed; `.production` makes it read-only.
    ///   - scanners: the scanners to register; by default every defaults suite of the process.
    ///   - options: name, limits and runtime folder.
    /// - Throws: ``JarvisError`` when the configuration is invalid or the socket cannot be made.
    public static func start(
        configuration: JarvisConfiguration = .debug,
        scanners: [any PreferenceScanner] = [DefaultsScanner.defaults()],
        options: Options = Options()
    ) throws(JarvisError) -> JarvisAgent {
        try configuration.validate()
        let hub = JarvisHub(configuration: configuration)
        for scanner in scanners { hub.register(scanner) }
        return try JarvisAgent(hub: hub, options: options)
    }

    /// Serves an existing hub.
    public init(hub: JarvisHub, options: Options = Options()) throws(JarvisError) {
        let directory = options.runtimeDirectory.map(RuntimeDirectory.init(url:)) ?? .current()
        try directory.prepare()
        let identity = AgentIdentity(name: options.name ?? ProcessInfo.processInfo.processName)
        let id = Self.uniqueID(pid: identity.pid)
        socketPath = directory.socketPath(for: id)
        recordURL = directory.recordURL(for: id)
        self.hub = hub
        let service = AgentService(hub: hub, identity: identity, maxLineLength: options.maxLineLength)
        var limits = LineServerLimits()
        limits.maxLineLength = options.maxLineLength
        limits.maxConnections = options.maxConnections
        let refusal = RPCResponse.failure(
            id: .null,
            error: RPCError(
                code: -32006, message: "the agent serves at most \(options.maxConnections) clients at once; try again later",
                name: JarvisError.Code.tooLarge.rawValue))
        server = LineServer(
            endpoints: [.unix(path: socketPath)], limits: limits, refusalLine: refusal,
            makeSession: { connection in AgentSession(service: service, connection: connection) })
        do {
            try server.start()
        } catch {
            throw JarvisError(.storage, "cannot serve on \(socketPath): \(error)")
        }
        record = AgentRecord(
            pid: identity.pid, name: identity.name, socket: socketPath, started: DateText.format(Date(timeIntervalSinceReferenceDate: Date().timeIntervalSinceReferenceDate.rounded(.down))),
            platform: identity.platform)
        do {
            try AgentDirectory.publish(record, at: recordURL)
        } catch {
            server.stop()
            throw error
        }
    }

    /// Registers one more scanner.
    public func register(_ scanner: any PreferenceScanner) {
        hub.register(scanner)
    }

    /// Stops serving, disconnects every client and removes the discovery file. Idempotent.
    public func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: recordURL)
    }

    private static let counter = Locked(0)

    private static func uniqueID(pid: Int32) -> String {
        let serial = counter.withLock { value -> Int in
            value += 1
            return value
        }
        return serial == 1 ? "\(pid)" : "\(pid)-\(serial)"
    }
}
