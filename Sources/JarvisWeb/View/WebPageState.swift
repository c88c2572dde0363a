import Dispatch
import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote
import JarvisTransport

/// What one open browser page holds: its ``InspectorSession`` on the chosen agent, and where
/// the user is (scope, filter, chips, the selected key, the edit in progress, a conflict, a
/// pending bulk delete). ``WebPage`` keeps it in a lock and reaches it only from jobs of its
/// lane, so intents, the live stream's redraws and reconnecting run one at a time.
struct WebPageState: Sendable {
    let options: WebOptions
    /// The page's flag for the live stream (see ``WebPage``).
    let changed: Locked<Bool>
    /// Told of every change of the model (the page asks its lane for a redraw).
    let onChange: @Sendable () -> Void

    struct Connection {
        var endpoint: Endpoint
        var session: InspectorSession
        /// Whether the agent went away and when to look for it again (the model's decision).
        var reconnection: InspectorReconnection
    }

    var connection: Connection?
    var connectProblem: String?
    /// No agent was named and several run: the page offers them to choose from (never the
    /// command line's "choose one with --agent" text).
    var choosing = false
    var scope: (scanner: String?, container: String?) = (nil, nil)
    var filter = InspectorFilter()
    var chips: Set<InspectorChip> = []
    /// The table's order, as the model sorts it (a header click changes it).
    var sort = InspectorSort.natural
    var selected: InspectorRow.Target?
    var draft: ValueDraft?
    var draftText = ""
    var draftProblem: InspectorFieldProblem?
    /// The time zone the date editor reads and shows its date and time in.
    var draftZone = TimeZone.current.identifier
    /// The draft asks a question (``ValueDraft/confirmation``) the user has not answered yet.
    var asking = false
    var conflict: InspectorConflict?
    var bulk: InspectorDeletion?
    /// The selected key's timeline, as of the model's generation it was read at (read again
    /// when the key or the model changes); the agent's refusal when it has no journal.
    var timeline: (address: PreferenceAddress, generation: Int, entries: Result<[InspectorTimelineEntry], JarvisError>)?
    var adding = false
    var message: InspectorMessage?
    /// The rows the table shows: ``table``'s, through the filter.
    var rows: [InspectorRow] = []
    var rowsVersion = 0
    /// The filter changed: ``rows`` is found again in ``table``.
    var rowsDirty = true
    /// The scope's rows under the chips, unfiltered.
    var table = InspectorFilteredRows()
    /// The model, the scope or the chips changed: ``table`` is built again.
    var tableDirty = true
    /// When the first change mark in ``table`` ends (nil: none): its rows are built again then.
    var highlightsEnd: ContinuousClock.Instant?
    var lastAgents: (at: ContinuousClock.Instant, records: [AgentRecord])?
    /// The name of the agent at `--agent tcp://…`, once it answered: the sidebar keeps showing
    /// it while another agent is open.
    var networkName: String?
    var version = 0

    /// Connects to the agent `selector` names (nil: the one `--agent` chose, or the only one running).
    mutating func connect(_ selector: String?) {
        let chosen = selector ?? options.selector
        choosing = false
        let named = chosen ?? ProcessInfo.processInfo.environment["JARVIS_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
        if named == nil, ((try? AgentDirectory.running()) ?? []).count > 1 {
            connectProblem = nil
            choosing = true
            return
        }
        do throws(JarvisError) {
            let endpoint = try AgentLocator.endpoint(for: chosen)
            try open(endpoint, selector: chosen)
        } catch {
            connectProblem = error.message
        }
    }

    mutating func open(_ endpoint: Endpoint, selector: String?) throws(JarvisError) {
        let source = try RemoteSource(endpoint: endpoint, token: token(for: endpoint, selector: selector), clientName: "jarvis-web")
        let session = InspectorSession(source: source)
        session.onChange { [changed, onChange] in
            changed.withLock { $0 = true }
            onChange()
        }
        // Subscribe before loading, so no change can fall between the two.
        session.startLive()
        do {
            try session.load()
        } catch {
            session.close()
            throw error
        }
        close()
        let state = session.state
        connection = Connection(
            endpoint: endpoint, session: session,
            reconnection: InspectorReconnection(selector: selector ?? state.hello.agent, state: state))
        connectProblem = nil
        tableDirty = true
        if selector == options.selector, options.selector?.hasPrefix("tcp://") == true { networkName = state.hello.agent }
    }

    /// The token for `endpoint`: the one the user gave (`--token-file`, `JARVIS_TOKEN`) only
    /// for the agent `--agent` named, so switching to another agent that serves TCP never
    /// hands it that token; any other agent's comes from its own discovery file.
    private func token(for endpoint: Endpoint, selector: String?) -> String? {
        if let token = options.token, selector == options.selector { return token }
        return AgentLocator.localToken(for: endpoint)
    }

    /// Ends the session.
    mutating func close() {
        guard let connection else { return }
        connection.session.onChange(nil)
        connection.session.close()
        self.connection = nil
    }

    /// Whether the agent went away under the page.
    var isGone: Bool {
        guard let connection else { return false }
        return connection.reconnection.isGone(connection.session.state)
    }

    /// Whether edits may be offered now: the model allows them and the agent is there.
    var canEdit: Bool {
        guard let connection else { return false }
        return connection.reconnection.canEdit(connection.session.state)
    }

    /// Reconnects by name to an agent that went away (as often as the model says), and
    /// catches up with everything that changed meanwhile.
    mutating func tick() {
        noticeAgents(now: .now)
        guard var connection else { return }
        let before = connection.session.state
        guard connection.reconnection.shouldTry(before, now: .now) else { return }
        self.connection = connection
        let selector = connection.reconnection.selector
        do throws(JarvisError) {
            let endpoint: Endpoint
            if case .tcp = connection.endpoint, selector.hasPrefix("tcp://") {
                endpoint = connection.endpoint
            } else {
                endpoint = try AgentLocator.endpoint(for: selector)
            }
            try open(endpoint, selector: selector)
        } catch {
            return
        }
        message = self.connection?.session.catchUp(from: before)
    }

    /// The table's rows, recomputed when the model or the filter changed.
    mutating func currentRows(now: ContinuousClock.Instant) -> [InspectorRow] {
        guard let state = connection?.session.state else {
            if !rows.isEmpty {
                rows = []
                rowsVersion += 1
            }
            return rows
        }
        // A mark ended since the rows were built: they are built again without it. (Asked of
        // the model's few marks, never of every row: a window request must not walk 100,000.)
        let highlightEnded = highlightsEnd.map { now >= $0 } ?? false
        guard rowsDirty || tableDirty || highlightEnded else { return rows }
        if tableDirty || highlightEnded {
            let sorted = state.sorted(
                state.tableRows(scanner: scope.scanner, container: scope.container, chips: chips, now: now), by: sort)
            table.replace(with: sorted)
            highlightsEnd = state.nextHighlightEnd(now: now)
            tableDirty = false
        }
        rows = table.rows(filter)
        rowsDirty = false
        rowsVersion += 1
        return rows
    }

    /// A window of the table.
    mutating func rowsWindow(from start: Int, count: Int) -> JSONValue {
        let all = currentRows(now: .now)
        let lower = max(0, min(start, all.count))
        let upper = max(lower, min(all.count, lower + max(0, min(count, 500))))
        let window = all[lower..<upper].map { shown in
            var row = shown
            // Inside one container, its name beside every key says nothing.
            if scope.container != nil { row.subtitle = nil }
            return WebJSON.row(row)
        }
        return WebJSON.object([
            ("version", WebJSON.int(rowsVersion)), ("total", WebJSON.int(all.count)), ("from", WebJSON.int(lower)),
            ("rows", .array(window)),
        ])
    }
}
