import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis inspect`: a full-screen browser of an agent's preferences, with editing and live
/// updates. Single-threaded: one main loop sleeps in `poll` on the keyboard, the resize pipe
/// and the watch feed's pipe, handles what woke it, and redraws the whole screen.
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
        case agents
        case scanners
        case containers(String)
        case keys(String, String)
        case value(PreferenceAddress)
    }

    /// What the keyboard is doing besides browsing.
    enum Mode {
        case browse
        case filter(LineEditor)
        case prompt(Prompt)
        case confirmDelete(PreferenceItem)
        case help
    }

    /// A question on the bottom lines.
    struct Prompt {
        enum Purpose {
            case edit(PreferenceItem)
            case newName(scanner: String, container: String)
            case newType(PreferenceAddress)
            case newValue(PreferenceAddress, PreferenceType)
        }
        var purpose: Purpose
        var title: String
        var editor: LineEditor
        var error: String?
    }

    /// The agent being inspected.
    struct Connection {
        var endpoint: Endpoint
        var client: JarvisClient
        var feed: WatchFeed?
        /// Why there are no live updates, or nil when they run.
        var liveProblem: String?

        var name: String { client.hello["agent"]?.stringValue ?? "agent" }
        var pid: String { client.hello["pid"]?.int64Value.map(String.init) ?? "?" }
        var editing: Bool { client.hello["capabilities"]?["editing"] != .bool(false) }
        var production: Bool { client.hello["capabilities"]?["production"] == .bool(true) }
        var reveal: Bool { client.hello["capabilities"]?["reveal"] == .bool(true) }
    }

    let terminal: RawTerminal
    let color: Bool
    var agents: [AgentRecord]
    var connection: Connection?
    var model = InspectorModel()
    var pages: [Page]
    var mode: Mode = .browse
    var status: (text: String, style: ScreenBuffer.Style)?
    var running = true
    private var decoder = KeyDecoder()

    /// Runs the inspector until the user quits.
    /// - Parameters:
    ///   - selector: `--agent` or `JARVIS_AGENT`; nil offers a picker when several agents run.
    ///   - childToStop: a process to stop if the inspector is killed (the demo agent).
    /// - Throws: ``JarvisError`` when no agent runs or the terminal cannot be used; the
    ///   terminal is restored before the error propagates.
    ///   - token: the TCP token (`--token`, `JARVIS_TOKEN`); nil uses the local discovery file's.
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

    /// Connects to an agent, loads what it shows and subscribes to changes.
    func open(_ endpoint: Endpoint) {
        do {
            let token = token ?? AgentLocator.localToken(for: endpoint)
            let client = try JarvisClient(endpoint: endpoint, clientName: "jarvis-inspect", token: token)
            var connection = Connection(endpoint: endpoint, client: client)
            // Subscribe before listing, so no change can fall between the two.
            do {
                switch try WatchFeed.start(endpoint: endpoint, token: token) {
                case .live(let feed): connection.feed = feed
                case .unsupported(let message): connection.liveProblem = message
                }
            } catch {
                connection.liveProblem = "no live updates: \(error.message)"
            }
            var model = InspectorModel()
            try model.load(from: client)
            self.connection = connection
            self.model = model
            pages.append(Page(level: .scanners))
            if model.scanners.count == 1, let only = model.scanners.first {
                pages.append(Page(level: .containers(only.id)))
            }
            status = connection.liveProblem.map { ($0, .warning) }
        } catch {
            status = ("cannot open the agent: \(error.message)", .error)
        }
    }

    /// Ends the connection to the current agent.
    func close() {
        connection?.feed?.stop()
        connection?.client.close()
        connection = nil
    }

    /// Reloads everything from the agent (Ctrl-L), keeping the user's place.
    func reload() {
        guard let connection else { return }
        do {
            try model.load(from: connection.client)
            status = ("reloaded", .plain)
        } catch {
            status = (error.message, .error)
        }
    }

    private func loop() {
        while running {
            draw()
            let now = ContinuousClock.now
            var timeout: Int32 = -1
            if decoder.hasPending { timeout = 40 }
            if let end = model.nextHighlightEnd(now: now) {
                let (seconds, attoseconds) = (end - now).components
                let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            var descriptors = [
                pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.resizeSignal, events: Int16(POLLIN), revents: 0),
            ]
            if let feed = connection?.feed {
                descriptors.append(pollfd(fd: feed.wakeRead, events: Int16(POLLIN), revents: 0))
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
            if descriptors.count > 2, descriptors[2].revents != 0 { takeEvents() }
            let input = descriptors[0].revents
            if input & Int16(POLLIN) != 0 {
                let bytes = terminal.readInput()
                if bytes.isEmpty { running = false }
                for key in decoder.decode(bytes) where running { handle(key) }
            } else if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                running = false
            }
            model.expireHighlights(now: ContinuousClock.now)
        }
    }

    private func takeEvents() {
        guard let feed = connection?.feed else { return }
        var changed = 0
        for event in feed.take() {
            switch event {
            case .changed(let params):
                changed += model.apply(changed: params, now: ContinuousClock.now)
            case .ended(let message):
                connection?.feed = nil
                connection?.liveProblem = message
                status = (message, .warning)
                feed.stop()
            }
        }
        if changed > 0, case .browse = mode, status == nil || status?.style == .plain {
            status = ("\(changed) change\(changed == 1 ? "" : "s") from the agent", .plain)
        }
    }
}
