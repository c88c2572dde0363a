import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote
import JarvisTransport

/// `jarvis inspect`: a full-screen browser of an agent's preferences, with editing and live
/// updates, drawn from the shared inspector model (``InspectorSession``).
///
/// Single-threaded: one main loop sleeps in `poll` on the keyboard, the resize pipe and a wake
/// pipe the session's live updates signal, handles what woke it, and redraws the whole
/// screen. The loop calls the session's blocking methods: this thread has nothing else to do.
final class Inspector {
    /// One level of the browser, with where the user was in it.
    struct Page {
        var level: Level
        var cursor = 0
        var top = 0
        var filter = ""
    }

    /// What a page shows.
    enum Level: Equatable {
        /// The running agents, to pick one.
        case agents
        /// A list from the model: scanners, containers, keys, or the members of a nested value.
        case list(InspectorLevel)
        /// One key's or member's detail and whole value.
        case detail(PreferenceAddress, JSONPointer)
    }

    /// What the keyboard is doing besides browsing.
    enum Mode {
        case browse
        case filter(LineEditor)
        case prompt(Prompt)
        case confirmDelete(InspectorRow.Target)
        /// The rows the filter shows, to delete after y.
        case confirmBulk(InspectorDeletion)
        /// A draft whose save asks first (replacing a secret), with the text to send.
        case confirmSave(ValueDraft, text: String)
        case help
    }

    /// A question on the bottom lines.
    struct Prompt {
        enum Purpose {
            case edit(ValueDraft)
            case newName(scanner: String, container: String)
            case newType(scanner: String, container: String, key: String)
        }
        var purpose: Purpose
        var title: String
        var editor: LineEditor
        var error: String?
        /// Typed characters show as dots (a secret being replaced).
        var secret = false
    }

    /// The agent being inspected.
    struct Connection {
        var endpoint: Endpoint
        var session: InspectorSession
        var wake: WakePipe

        var state: InspectorState { session.state }
        var name: String { state.hello.agent }
        var pid: String { String(state.hello.pid) }
    }

    let terminal: RawTerminal
    let color: Bool
    var agents: [AgentRecord]
    var connection: Connection?
    var pages: [Page]
    var mode: Mode = .browse
    var status: (text: String, style: ScreenBuffer.Style)? {
        didSet { statusIsChange = false }
    }
    /// The status line names a change from elsewhere (a newer one may replace it).
    var statusIsChange = false
    /// The last list built, by what it was built from: a key press that moves the cursor
    /// builds no row (30,000 keys cost tens of milliseconds to build).
    var rowCache: (key: RowCacheKey, rows: [Row])?

    /// What a cached list was built from.
    struct RowCacheKey: Equatable {
        var level: InspectorLevel
        var filter: String
        var width: Int
        var generation: Int
        var session: ObjectIdentifier
    }
    var running = true
    private var decoder = KeyDecoder()

    /// Runs the inspector until the user quits.
    /// - Parameters:
    ///   - selector: `--agent` or `JARVIS_AGENT`; nil offers a picker when several agents run.
    ///   - token: the TCP token (`--token`, `JARVIS_TOKEN`); nil uses the local discovery file's.
    ///   - childToStop: a process to stop if the inspector is killed (the demo agent).
    /// - Throws: ``JarvisError`` when no agent runs or the terminal cannot be used; the
    ///   terminal is restored before the error propagates.
    static func run(selector: String?, token: String? = nil, childToStop: pid_t = 0) throws(JarvisError) {
        let environment = ProcessInfo.processInfo.environment
        let chosen = selector ?? environment["JARVIS_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
        var agents: [AgentRecord] = []
        var endpoint: Endpoint?
        if let chosen {
            endpoint = try AgentLocator.endpoint(for: chosen)
        } else {
            agents = try AgentDirectory.running()
            if agents.count <= 1 { endpoint = try AgentLocator.endpoint(for: nil) }
        }
        let terminal = try RawTerminal()
        TerminalRescue.childToStop = childToStop
        defer { terminal.restore() }
        let inspector = Inspector(terminal: terminal, agents: agents, token: token)
        if let endpoint { inspector.open(endpoint) }
        inspector.loop()
        inspector.close()
    }

    private let token: String?

    private init(terminal: RawTerminal, agents: [AgentRecord], token: String?) {
        self.terminal = terminal
        self.token = token
        self.agents = agents
        color =
            ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        pages = agents.count > 1 ? [Page(level: .agents)] : []
    }

    /// Connects to an agent, subscribes to changes and loads what it shows.
    func open(_ endpoint: Endpoint) {
        do {
            let wake = try WakePipe.make()
            let source = try RemoteSource(
                endpoint: endpoint, token: token ?? AgentLocator.localToken(for: endpoint), clientName: "jarvis-inspect"
            )
            let session = InspectorSession(source: source)
            session.onChange { wake.signal() }
            // Subscribe before loading, so no change can fall between the two.
            session.startLive()
            try session.load()
            connection = Connection(endpoint: endpoint, session: session, wake: wake)
            pages.append(Page(level: .list(.scanners)))
            let scanners = session.state.scanners
            if scanners.count == 1, let only = scanners.first {
                pages.append(Page(level: .list(.containers(scanner: only.id))))
            }
            status = session.state.liveProblem.map { ($0, .warning) }
        } catch let error as SocketError {
            status = ("cannot open the agent: \(error)", .error)
        } catch let error as JarvisError {
            status = ("cannot open the agent: \(error.message)", .error)
        } catch {
            status = ("cannot open the agent: \(error)", .error)
        }
    }

    /// Ends the connection to the current agent.
    func close() {
        guard let connection else { return }
        connection.session.onChange(nil)
        connection.session.close()
        connection.wake.close()
        self.connection = nil
    }

    /// Reloads everything from the agent (Ctrl-L), keeping the user's place.
    func reload() {
        guard let connection else { return }
        do {
            try connection.session.load()
            status = ("reloaded", .plain)
        } catch {
            status = (error.message, .error)
        }
    }

    private func loop() {
        var lastChangeCount = 0
        while running {
            connection?.session.expireHighlights()
            draw()
            let now = ContinuousClock.now
            var timeout: Int32 = -1
            if decoder.hasPending { timeout = 40 }
            if let end = connection?.state.nextHighlightEnd(now: now) {
                let (seconds, attoseconds) = (end - now).components
                let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            var descriptors = [
                pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.resizeSignal, events: Int16(POLLIN), revents: 0),
            ]
            if let wake = connection?.wake {
                descriptors.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0))
            }
            let ready = TerminalShim.poll(&descriptors, timeout: timeout)
            if ready < 0 {
                if TerminalShim.errno == EINTR { continue }
                status = ("poll failed (errno \(TerminalShim.errno))", .error)
                running = false
                continue
            }
            if ready == 0, decoder.hasPending {
                for key in decoder.flushEscape() { handle(key) }
            }
            if descriptors[1].revents != 0 { terminal.drainResize() }
            if descriptors.count > 2, descriptors[2].revents != 0, let connection {
                connection.wake.drain()
                let state = connection.state
                if let problem = state.liveProblem, !state.isLive {
                    status = (problem, .warning)
                } else if state.changeCount > lastChangeCount, let change = state.lastChange, case .browse = mode,
                    status == nil || statusIsChange
                {
                    // Never over the answer to the user's own action.
                    show(change)
                    statusIsChange = true
                }
                lastChangeCount = state.changeCount
            }
            let input = descriptors[0].revents
            if input & Int16(POLLIN) != 0 {
                let bytes = terminal.readInput()
                if bytes.isEmpty { running = false }
                for key in decoder.decode(bytes) where running { handle(key) }
            } else if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                running = false
            }
        }
    }
}
