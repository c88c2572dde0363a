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
        /// Every key of every container, in one list with one filter.
        case allKeys
        /// A list from the model: scanners, containers, keys, or the members of a nested value.
        case list(InspectorLevel)
        /// One key's or member's detail and whole value.
        case detail(PreferenceAddress, JSONPointer)
        /// One key's changes from the agent's journal, newest first, each to revert.
        case timeline(PreferenceAddress)

        /// Whether it lists keys or members, which `s` sorts.
        var listsKeys: Bool {
            switch self {
            case .allKeys: true
            case .list(let level): level.isSortable
            case .agents, .detail, .timeline: false
            }
        }
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
        /// Leaving the last level disconnects: asked first (to the agent list, or quitting).
        case confirmLeave(toAgents: Bool)
        /// The key help, scrolled to its line `top`.
        case help(top: Int)
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
        /// How to find the agent again when it goes away: what the user chose, or its name.
        var reconnection: InspectorReconnection

        var state: InspectorState { session.state }
        var name: String { state.hello.agent }
        var pid: String { String(state.hello.pid) }
    }

    let terminal: RawTerminal
    let color: Bool
    var agents: [InspectorAgent]
    /// Set while the agent list is on screen.
    var agentListWatch: AgentListWatch?
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
    /// How lists of keys and members are ordered (`s` cycles it), as the model sorts them.
    var sort = InspectorSort.natural
    var rowCache: (key: RowCacheKey, rows: RowList)?
    /// The last list built without its filter: typing a filter narrows these instead of
    /// building every row again.
    var unfilteredCache: (key: RowCacheKey, rows: [Row], index: InspectorFilterIndex)?
    /// The last detail's lines, by what they were built from: scrolling a 10 MB value
    /// formats it once.
    var detailCache: (key: RowCacheKey, lines: [String])?
    /// The timeline on screen, as the journal gave it when the page opened (or was reverted).
    var timeline: (address: PreferenceAddress, entries: [InspectorTimelineEntry])?

    /// What a cached list was built from.
    struct RowCacheKey: Equatable {
        var level: Level
        var filter: String
        var width: Int
        var generation: Int
        var session: ObjectIdentifier
        var sort = InspectorSort.natural
    }
    var running = true
    private var decoder = KeyDecoder()
    /// With `--agents`: the agents whose values a detail shows side by side.
    var fleetPeek: FleetPeek?

    /// Runs the inspector until the user quits.
    /// - Parameters:
    ///   - selector: `--agent` or `JARVIS_AGENT`; nil offers a picker when several agents run.
    ///   - token: the TCP token (`--token`, `JARVIS_TOKEN`); nil uses the local discovery file's.
    ///   - childToStop: a process to stop if the inspector is killed (the demo agent).
    /// - Throws: ``JarvisError`` when no agent runs or the terminal cannot be used; the
    ///   terminal is restored before the error propagates.
    ///   - fleet: `--agents`: the agents a key's detail shows its value on, one line each; the
    ///     first of them is the one browsed.
    static func run(
        selector: String?, token: String? = nil, childToStop: pid_t = 0, fleet: AgentSelection.Resolved? = nil,
        bound: Duration = FleetRun.defaultBound
    ) throws(JarvisError) {
        let environment = ProcessInfo.processInfo.environment
        var chosen = selector ?? environment["JARVIS_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
        if let fleet {
            guard let first = fleet.agents.first, let address = first.socket ?? first.tcp else {
                throw JarvisError(
                    .notFound, "--agents \(fleet.unmatched.joined(separator: ",")) names no running agent; `jarvis agents` lists them")
            }
            chosen = address
        }
        var agents: [InspectorAgent] = []
        var endpoint: Endpoint?
        if let chosen {
            endpoint = try AgentLocator.endpoint(for: chosen)
        } else if try AgentDirectory.running().count <= 1 {
            endpoint = try AgentLocator.endpoint(for: nil)
        } else {
            agents = try InspectorAgent.running(token: token)
        }
        let terminal = try RawTerminal()
        TerminalRescue.childToStop = childToStop
        defer { terminal.restore() }
        let inspector = Inspector(terminal: terminal, agents: agents, token: token)
        if let fleet, fleet.agents.count + fleet.unmatched.count > 1 {
            inspector.fleetPeek = FleetPeek(agents: fleet, bound: bound)
        }
        if let endpoint { inspector.open(endpoint, selector: chosen) }
        inspector.loop()
        inspector.close()
        inspector.pages = []
        inspector.watchAgentsWhileListed()
    }

    let token: String?

    private init(terminal: RawTerminal, agents: [InspectorAgent], token: String?) {
        self.terminal = terminal
        self.token = token
        self.agents = agents
        color =
            ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        pages = agents.count > 1 ? [Page(level: .agents)] : []
    }

    /// Connects to an agent, subscribes to changes and loads what it shows.
    /// - Parameter selector: what the user chose it by; nil finds it again by its name.
    func open(_ endpoint: Endpoint, selector: String?) {
        do {
            let connection = try connect(endpoint, selector: selector)
            self.connection = connection
            let session = connection.session
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

    /// A loaded, live session on the agent at `endpoint`.
    private func connect(_ endpoint: Endpoint, selector: String?) throws -> Connection {
        let wake = try WakePipe.make()
        do {
            let source = try RemoteSource(
                endpoint: endpoint, token: token ?? AgentLocator.localToken(for: endpoint), clientName: "jarvis-inspect"
            )
            let session = InspectorSession(source: source)
            session.onChange { wake.signal() }
            // Subscribe before loading, so no change can fall between the two.
            session.startLive()
            do {
                try session.load()
            } catch {
                session.onChange(nil)
                session.close()
                throw error
            }
            let state = session.state
            return Connection(
                endpoint: endpoint, session: session, wake: wake,
                reconnection: InspectorReconnection(selector: selector ?? state.hello.agent, state: state))
        } catch {
            wake.close()
            throw error
        }
    }

    /// While the agent is gone, tries (at most once a second) to find it again by name; once
    /// back, swaps in a new session, keeps the user's place and says what changed meanwhile.
    func reconnectIfGone() {
        guard var old = connection, old.reconnection.shouldTry(old.state, now: .now) else { return }
        connection?.reconnection = old.reconnection
        let selector = old.reconnection.selector
        let endpoint: Endpoint
        do {
            if case .tcp = old.endpoint, selector.hasPrefix("tcp://") {
                endpoint = old.endpoint
            } else {
                endpoint = try AgentLocator.endpoint(for: selector)
            }
            let fresh = try connect(endpoint, selector: selector)
            let before = old.state
            close()
            connection = fresh
            rowCache = nil
            if case .browse = mode {} else { mode = .browse }
            show(fresh.session.catchUp(from: before))
        } catch {
            // Not back yet: the loop tries again after InspectorReconnection.interval.
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
        fleetPeek?.forget()
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
            if let connection, connection.reconnection.isGone(connection.state) {
                reconnectIfGone()
                // Still gone: look again after the model's interval.
                if let connection = self.connection, connection.reconnection.isGone(connection.state) {
                    let wait = Int32(clamping: max(0, InspectorReconnection.interval.wholeMilliseconds(rounded: .up)))
                    timeout = timeout < 0 ? wait : min(timeout, wait)
                }
            }
            if let end = connection?.state.nextHighlightEnd(now: now) {
                let milliseconds = Int32(clamping: max(0, (end - now).wholeMilliseconds(rounded: .up)))
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            var descriptors = [
                pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.resizeSignal, events: Int16(POLLIN), revents: 0),
            ]
            watchAgentsWhileListed()
            let listWake = agentListWatch?.wake.readEnd ?? -1
            descriptors.append(pollfd(fd: listWake, events: Int16(POLLIN), revents: 0))
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
            if descriptors[2].revents != 0 { takeWatchedAgents() }
            if descriptors.count > 3, descriptors[3].revents != 0, let connection {
                connection.wake.drain()
                let state = connection.state
                if connection.reconnection.isGone(state) {
                    show(InspectorMessage.agentGone(state))
                } else if let problem = state.liveProblem, !state.isLive {
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
