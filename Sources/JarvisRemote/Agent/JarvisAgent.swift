import Foundation
import JarvisCore
import JarvisSystem
import JarvisTransport

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
        /// A TCP endpoint to listen on as well, e.g. `.tcp(host: "127.0.0.1", port: 0)` (port 0
        /// picks a free port; see ``JarvisAgent/tcpEndpoint``). Nil, the default, keeps the agent
        /// on its owner-only Unix socket. TCP clients must present ``JarvisAgent/token``; the
        /// protocol is not encrypted, so prefer loopback plus an SSH tunnel to `0.0.0.0`.
        public var tcp: Endpoint?
        /// Closes Unix socket clients silent for this long; nil (the default) never does, since
        /// only the owner can connect and an idle client costs one sleeping thread.
        public var idleTimeout: Duration?
        /// Closes TCP clients silent for this long (default 10 minutes), so forgotten tunnels
        /// and half-open connections do not hold a slot for ever.
        public var tcpIdleTimeout: Duration?
        /// The token TCP clients must present, fixed for automation (a phone in a test lab, a
        /// CI job); nil, the default, draws a fresh random token at every start. At least 16
        /// characters: use 32 or more random ones (`openssl rand -hex 32`).
        public var tcpToken: String?
        /// How long a new TCP connection has to send `hello` with the token (default 5 s);
        /// one that has not by then is closed, whatever the idle timeout.
        public var tcpAuthenticationTimeout: Duration
        /// TCP connections still authenticating served at once (default 16), always kept
        /// below `maxConnections`; when all are taken a new connection displaces the oldest
        /// of them, so silent connections never lock out a client with the token.
        public var maxUnauthenticatedConnections: Int
        /// Answers queued for all clients together (Unix and TCP), in bytes; a client that
        /// stops reading while they pass this is dropped. Large `list` answers are made while
        /// the client reads them and count only the part in hand.
        public var maxPendingOutputBytes: Int
        /// How long a client may read nothing while 64 KiB or more of its answers wait (a
        /// listing being made counts as that much) before it is dropped: a client that reads,
        /// however slowly, is never dropped for it. Default 30 s; nil never drops one for it.
        public var outputStallTimeout: Duration? = .seconds(30)
        /// How many audit records `history` keeps in memory.
        public var auditCapacity: Int
        /// The most bytes the journal of changes (what `jarvis undo` takes back) holds, in memory
        /// and in its file; the oldest entries go first. Default 16 MiB; 0 keeps no journal.
        public var journalBytes: Int = 16 << 20
        /// Where the journal file is kept across restarts; nil, the default, is the state folder
        /// (`$XDG_STATE_HOME/jarvis/journal` or `~/.local/state/jarvis/journal` on Linux,
        /// `Application Support/Jarvis/journal` on Apple platforms). The file is named after
        /// the agent and a digest of the places its scanners serve (two agents of one name
        /// serving different folders keep different journals), and readable by its owner only.
        public var journalFolder: URL?
        /// Where a short private socket folder is made when the runtime folder's path is too
        /// long for a socket; tests point it at a folder that refuses one, to reach loopback TCP.
        package var shortSocketParent = AgentPlacement.shortParent
        /// How long a request that may wait on storage or another process (a write, a
        /// listing, a keyring) may take before its client gets a timeout error; the agent
        /// keeps serving every other client meanwhile.
        package var requestTimeout: Duration = .seconds(15)

        /// Creates options; the defaults suit almost every host.
        public init(
            name: String? = nil, maxLineLength: Int = 1 << 20, maxConnections: Int = 64, runtimeDirectory: URL? = nil,
            tcp: Endpoint? = nil, idleTimeout: Duration? = nil, tcpIdleTimeout: Duration? = .seconds(600),
            maxPendingOutputBytes: Int = 8 << 20, auditCapacity: Int = 1000,
            tcpAuthenticationTimeout: Duration = .seconds(5), maxUnauthenticatedConnections: Int = 16,
            journalFolder: URL? = nil
        ) {
            self.name = name
            self.maxLineLength = maxLineLength
            self.maxConnections = maxConnections
            self.runtimeDirectory = runtimeDirectory
            self.tcp = tcp
            self.idleTimeout = idleTimeout
            self.tcpIdleTimeout = tcpIdleTimeout
            self.maxPendingOutputBytes = maxPendingOutputBytes
            self.auditCapacity = auditCapacity
            self.tcpAuthenticationTimeout = tcpAuthenticationTimeout
            self.maxUnauthenticatedConnections = maxUnauthenticatedConnections
            self.journalFolder = journalFolder
        }
    }

    /// The hub: register more scanners here, or call it directly in tests.
    public let hub: JarvisHub
    /// The Unix socket clients connect to: in the runtime folder, or in a short private
    /// folder under `/tmp` when the runtime folder's path is too long for a socket; empty
    /// when the agent serves only on loopback TCP (see ``endpoint``).
    public let socketPath: String
    /// Where clients of this machine connect: the Unix socket, or loopback TCP with
    /// ``token`` when no socket path short enough could be made.
    public let endpoint: Endpoint
    /// What the discovery file says.
    public let record: AgentRecord
    /// The TCP endpoint actually listening (with the real port), or nil when TCP is off.
    public var tcpEndpoint: Endpoint? {
        if case .on(_, let endpoint, _) = tcp { return endpoint }
        return nil
    }
    /// The token TCP clients must send in `hello`, or nil when TCP is off.
    public var token: String? {
        if case .on(_, _, let token) = tcp { return token.text }
        return nil
    }
    /// The last set, delete and reveal operations made through the agent.
    public var auditLog: AuditLog { service.audit.log }
    /// Called with each audit record as it happens, on the agent's thread that served the
    /// request; keep it short (hand the record to your logger). Nil by default.
    public var onAudit: (@Sendable (AuditRecord) -> Void)? {
        get { service.audit.onRecord }
        set { service.audit.onRecord = newValue }
    }
    /// Whether any client watches now: a connection's subscriptions end once the agent has
    /// processed its close, which happens after the client's side is already gone.
    package var isWatching: Bool { service.engine.isWatching }
    /// Whether the agent also serves TCP, and with what: the server, its endpoint and token
    /// come and go together.
    private enum TCP {
        case off
        case on(LineServer, Endpoint, AgentToken)
    }

    /// The Unix socket's server; nil when the agent serves only on loopback TCP.
    private let server: LineServer?

    /// How many clients are connected to the agent's socket now (for leak tests).
    package var connectionCount: Int { server?.connectionCount ?? 0 }
    private let tcp: TCP
    /// The request handler, shared with in-process inspectors (JarvisInspector).
    package let service: AgentService
    private let recordURL: URL
    private let placement: AgentPlacement
    /// The journal's file once read (off the starting thread), released at ``stop()``; nil while
    /// it is read and when the journal lives in memory only.
    private let journalFile = Locked<(file: JournalFile?, stopped: Bool)>((nil, false))

    /// Starts an agent serving the given scanners.
    ///
    /// With `import Jarvis`, `start(configuration:options:)` serves the built-in default
    /// (every defaults suite of the process) without naming it.
    /// - Parameters:
    ///   - configuration: what may be shown and changed; `.production` makes it read-only.
    ///   - scanners: the scanners to register, e.g. `[.defaults(), .jsonFiles(in: [folder])]`.
    ///   - options: name, limits and runtime folder.
    /// - Throws: ``JarvisError`` when the configuration is invalid or the socket cannot be made.
    public static func start(
        configuration: JarvisConfiguration = .debug,
        scanners: [any PreferenceScanner],
        options: Options = Options()
    ) throws(JarvisError) -> JarvisAgent {
        try configuration.validate()
        let hub = JarvisHub(configuration: configuration)
        for scanner in scanners { hub.register(scanner) }
        return try JarvisAgent(hub: hub, options: options)
    }

    /// Serves an existing hub.
    /// - Throws: ``JarvisError`` when the runtime folder is not this user's private folder (a
    ///   link, another user's, or open to others: the message says how to fix it), or when
    ///   the agent cannot listen.
    public init(hub: JarvisHub, options: Options = Options()) throws(JarvisError) {
        let directory = options.runtimeDirectory.map(RuntimeDirectory.init(url:)) ?? .current()
        try directory.prepare()
        let identity = AgentIdentity(name: options.name ?? ProcessInfo.processInfo.processName)
        let id = Self.uniqueID(pid: identity.pid)
        let placement = AgentPlacement.choose(id: id, in: directory, shortParent: options.shortSocketParent)
        self.placement = placement
        socketPath = placement.socketPath ?? ""
        recordURL = directory.recordURL(for: id)
        self.hub = hub
        let service = AgentService(
            hub: hub, identity: identity, maxLineLength: options.maxLineLength,
            audit: AgentAudit(capacity: options.auditCapacity), requestTimeout: options.requestTimeout,
            maxAnswerBytes: options.maxPendingOutputBytes)
        self.service = service
        var limits = LineServerLimits()
        limits.maxLineLength = options.maxLineLength
        limits.maxConnections = options.maxConnections
        limits.idleTimeout = options.idleTimeout
        limits.maxPendingOutputBytes = options.maxPendingOutputBytes
        limits.outputStallTimeout = options.outputStallTimeout
        let refusal = RPCResponse.failure(
            id: .null,
            error: RPCError(
                code: -32006,
                message: "the agent serves at most \(options.maxConnections) clients at once; try again later",
                name: JarvisError.Code.tooLarge.rawValue))
        // One output budget for every client, whichever transport it came in on.
        let budget = OutputBudget(limit: options.maxPendingOutputBytes)
        server = try Self.startUnix(placement, limits: limits, refusal: refusal, budget: budget, service: service)
        let started: (server: LineServer, endpoint: Endpoint, token: AgentToken)?
        do {
            var tcpLimits = limits
            tcpLimits.idleTimeout = options.tcpIdleTimeout
            tcpLimits.authenticationTimeout = options.tcpAuthenticationTimeout
            tcpLimits.maxUnauthenticatedConnections = options.maxUnauthenticatedConnections
            // Without a socket, loopback TCP (with its token) is how local clients get in.
            let wanted = options.tcp ?? (placement == .loopback ? .tcp(host: "127.0.0.1", port: 0) : nil)
            started = try Self.startTCP(
                wanted, token: options.tcpToken, limits: tcpLimits, refusal: refusal, budget: budget,
                service: service)
        } catch {
            server?.stop()
            Self.removeShortFolder(of: placement)
            throw error
        }
        tcp = started.map { .on($0.server, $0.endpoint, $0.token) } ?? .off
        endpoint = placement.socketPath.map { .unix(path: $0) } ?? started?.endpoint ?? .unix(path: socketPath)
        service.tcpEndpoint.withLock { $0 = started?.endpoint }
        // Read on another thread: a journal of many megabytes must not delay the host's start.
        // Until it is in, every use of the journal waits (a write, an undo), so ids carry on.
        hub.journal.beginLoading()
        let folder = options.journalFolder ?? JournalFile.defaultFolder()
        let (journalBytes, name, slot) = (options.journalBytes, identity.name, journalFile)
        let places = hub.journalPlaces(program: identity.program)
        DispatchQueue.global(qos: .utility).async {
            let journal =
                journalBytes > 0
                ? JournalFile.load(folder: folder, agent: name, places: places, budget: journalBytes)
                : JournalFile.Opened(file: nil, entries: [], problems: [])
            hub.journal.open(
                budget: journalBytes, store: journal.file, entries: hub.trusted(journal.entries),
                problems: journal.problems)
            let kept = slot.withLock { slot -> Bool in
                guard !slot.stopped else { return false }
                slot.file = journal.file
                return true
            }
            if !kept { journal.file?.close() }
            hub.journal.endLoading()
        }
        record = AgentRecord(
            pid: identity.pid, name: identity.name, socket: placement.socketPath,
            started: DateText.format(
                Date(timeIntervalSinceReferenceDate: Date().timeIntervalSinceReferenceDate.rounded(.down))),
            platform: identity.platform, tcp: started?.endpoint.description, token: started?.token.text,
            program: identity.program)
        do {
            try AgentDirectory.publish(record, at: recordURL)
        } catch {
            server?.stop()
            started?.server.stop()
            closeJournal()
            Self.removeShortFolder(of: placement)
            throw error
        }
    }

    /// Releases the journal's file for the next agent of the same name (now, or once read).
    private func closeJournal() {
        journalFile.withLock { slot in
            slot.stopped = true
            slot.file?.close()
            slot.file = nil
        }
    }

    /// Registers one more scanner.
    public func register(_ scanner: any PreferenceScanner) {
        hub.register(scanner)
    }

    /// Stops serving, disconnects every client and removes the discovery file. Idempotent.
    public func stop() {
        closeJournal()
        server?.stop()
        if case .on(let tcpServer, _, _) = tcp { tcpServer.stop() }
        PrivatePath.removeEntry(recordURL.path)
        Self.removeShortFolder(of: placement)
    }

    /// Serves the Unix socket the placement names, if any.
    private static func startUnix(
        _ placement: AgentPlacement, limits: LineServerLimits, refusal: [UInt8], budget: OutputBudget,
        service: AgentService
    ) throws(JarvisError) -> LineServer? {
        guard let path = placement.socketPath else { return nil }
        let server = LineServer(
            endpoints: [.unix(path: path)], limits: limits, refusalLine: refusal, budget: budget,
            makeSession: { connection in AgentSession(service: service, connection: connection) })
        do {
            try server.start()
        } catch {
            removeShortFolder(of: placement)
            throw JarvisError(.storage, "cannot serve on \(path): \(error)")
        }
        return server
    }

    /// Removes the short socket folder (empty once the server removed its socket).
    private static func removeShortFolder(of placement: AgentPlacement) {
        guard case .shortSocket(let path, let folder) = placement else { return }
        if PrivatePath.isOwnedSocket(path) { PrivatePath.removeEntry(path) }
        PrivatePath.removeEmptyFolder(folder)
    }

    /// TCP has its own server so that its idle timeout differs and a flood of TCP clients
    /// cannot take the Unix socket's connection slots.
    private static func startTCP(
        _ endpoint: Endpoint?, token fixed: String?, limits: LineServerLimits, refusal: [UInt8],
        budget: OutputBudget, service: AgentService
    ) throws(JarvisError) -> (server: LineServer, endpoint: Endpoint, token: AgentToken)? {
        guard let endpoint else { return nil }
        guard case .tcp = endpoint else {
            throw JarvisError(
                .invalidParams, "Options.tcp must be a TCP endpoint such as tcp://127.0.0.1:7777, not \(endpoint)")
        }
        if let fixed, fixed.count < 16 || fixed.contains(where: { $0.isWhitespace || $0.isNewline }) {
            throw JarvisError(
                .invalidParams,
                "Options.tcpToken must be at least 16 characters without spaces; use 32 or more random ones (`openssl rand -hex 32`)"
            )
        }
        let token = fixed.map(AgentToken.init) ?? AgentToken.random()
        let server = LineServer(
            endpoints: [endpoint], limits: limits, refusalLine: refusal, budget: budget,
            makeSession: { connection in AgentSession(service: service, connection: connection, token: token) })
        do {
            try server.start()
        } catch {
            throw JarvisError(.unavailable, "cannot listen on \(endpoint): \(error)")
        }
        return (server, server.boundEndpoints.first ?? endpoint, token)
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
