import Dispatch
import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote
import JarvisTransport

/// One open browser page: its own ``InspectorSession`` on the chosen agent, and where the user
/// is (scope, filter, chips, the selected key, the edit in progress, a conflict, a pending bulk
/// delete). The page draws ``view()`` and sends intents to ``handle(_:)``.
///
/// Threading: every mutable field is touched only on `work`, a serial queue, so intents, the
/// live stream's redraws and reconnecting run one at a time. The session's change handler
/// only raises a flag and wakes the stream.
final class WebPage: @unchecked Sendable {
    /// The page's identity in URLs.
    let id: String
    let options: WebOptions
    let work = DispatchQueue(label: "jarvis.web.page")
    /// Signalled on every change of the model, for the live stream.
    let wake = DispatchSemaphore(value: 0)
    /// Raised by the session's change handler; taken by ``view()``.
    let changed = Locked(true)
    /// When a stream last ran or an intent arrived: a page nobody holds is closed.
    let lastSeen = Locked(ContinuousClock.now)
    /// The newest live stream; an older one ends.
    let streamGeneration = Locked(0)

    // MARK: State (only on `work`)

    struct Connection {
        var endpoint: Endpoint
        var session: InspectorSession
        /// How to find the agent again: what the user chose, or its name.
        var selector: String
        var wasLive: Bool
    }

    var connection: Connection?
    var connectProblem: String?
    var scope: (scanner: String?, container: String?) = (nil, nil)
    var filter = InspectorFilter()
    var chips: Set<InspectorChip> = []
    var selected: InspectorRow.Target?
    var draft: ValueDraft?
    var draftText = ""
    var draftError: String?
    var conflict: JSONValue?
    var conflictYours: String?
    var bulk: InspectorDeletion?
    var adding = false
    var message: (text: String, kind: String)?
    var rows: [InspectorRow] = []
    var rowsVersion = 0
    var rowsDirty = true
    var oldPreviews: [PreferenceAddress: String] = [:]
    var lastAgents: (at: ContinuousClock.Instant, records: [AgentRecord])?
    var lastReconnectTry: ContinuousClock.Instant?
    var version = 0

    init(id: String, options: WebOptions) {
        self.id = id
        self.options = options
    }

    /// Connects to the agent `selector` names (nil: the one `--agent` chose, or the only one running).
    func connect(_ selector: String?) {
        let chosen = selector ?? options.selector
        do throws(JarvisError) {
            let endpoint = try AgentLocator.endpoint(for: chosen)
            try open(endpoint, selector: chosen)
        } catch {
            connectProblem = error.message
        }
    }

    func open(_ endpoint: Endpoint, selector: String?) throws(JarvisError) {
        let source = try RemoteSource(
            endpoint: endpoint, token: options.token ?? AgentLocator.localToken(for: endpoint), clientName: "jarvis-web")
        let session = InspectorSession(source: source)
        session.onChange { [weak self] in
            guard let self else { return }
            self.changed.withLock { $0 = true }
            self.wake.signal()
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
        let name = session.state.hello.agent
        connection = Connection(
            endpoint: endpoint, session: session, selector: selector ?? name, wasLive: session.state.isLive)
        connectProblem = nil
        rowsDirty = true
    }

    /// Ends the session.
    func close() {
        guard let connection else { return }
        connection.session.onChange(nil)
        connection.session.close()
        self.connection = nil
    }

    /// Whether the agent went away under the page.
    var isGone: Bool {
        guard let connection else { return false }
        return connection.wasLive && !connection.session.state.isLive
    }

    /// Whether edits may be offered now: the model allows them and the agent is there.
    var canEdit: Bool {
        guard let connection, !isGone else { return false }
        return connection.session.state.canEdit
    }

    /// Reconnects by name to an agent that went away (at most once a second), catching up
    /// with everything that changed meanwhile.
    func tick() {
        guard let connection, isGone else { return }
        let now = ContinuousClock.now
        if let last = lastReconnectTry, now - last < .seconds(1) { return }
        lastReconnectTry = now
        let before = connection.session.state.items
        do throws(JarvisError) {
            let endpoint: Endpoint
            if case .tcp = connection.endpoint, connection.selector.hasPrefix("tcp://") {
                endpoint = connection.endpoint
            } else {
                endpoint = try AgentLocator.endpoint(for: connection.selector)
            }
            try open(endpoint, selector: connection.selector)
        } catch {
            return
        }
        guard let fresh = self.connection?.session.state.items else { return }
        var changes = 0
        for (address, item) in fresh where before[address]?.revision != item.revision { changes += 1 }
        for address in before.keys where fresh[address] == nil { changes += 1 }
        message = (
            changes == 0
                ? "the agent is back; nothing changed while it was gone"
                : "the agent is back; \(changes) key\(changes == 1 ? "" : "s") changed while it was gone",
            "info"
        )
    }

    /// The table's rows, recomputed when the model or the filter changed.
    func currentRows(now: ContinuousClock.Instant) -> [InspectorRow] {
        guard let state = connection?.session.state else {
            if !rows.isEmpty {
                rows = []
                rowsVersion += 1
            }
            return rows
        }
        let highlightEnded = rows.contains { row in
            row.has(.changed) && !(row.target.address.map { state.isRecentlyChanged($0, now: now) } ?? false)
        }
        guard rowsDirty || highlightEnded else { return rows }
        let fresh = state.tableRows(scanner: scope.scanner, container: scope.container, filter: filter, chips: chips, now: now)
        // Remember what a changed row showed before, for "old → new".
        let newlyChanged = fresh.filter { row in
            row.has(.changed) && row.target.address.map { oldPreviews[$0] == nil } ?? false
        }
        if !newlyChanged.isEmpty {
            var previous: [PreferenceAddress: String] = [:]
            for row in rows { if let address = row.target.address { previous[address] = row.preview } }
            for row in newlyChanged {
                if let address = row.target.address { oldPreviews[address] = previous[address] ?? "(new)" }
            }
        }
        oldPreviews = oldPreviews.filter { state.isRecentlyChanged($0.key, now: now) }
        rows = fresh
        rowsDirty = false
        rowsVersion += 1
        return rows
    }

    /// A window of the table.
    func rowsWindow(from start: Int, count: Int) -> JSONValue {
        let all = currentRows(now: .now)
        let lower = max(0, min(start, all.count))
        let upper = max(lower, min(all.count, lower + max(0, min(count, 500))))
        let window = all[lower..<upper].map { shown in
            var row = shown
            // Inside one container, its name beside every key says nothing.
            if scope.container != nil { row.subtitle = nil }
            return WebJSON.row(row, old: row.has(.changed) ? row.target.address.flatMap { oldPreviews[$0] } : nil)
        }
        return WebJSON.object([
            ("version", WebJSON.int(rowsVersion)), ("total", WebJSON.int(all.count)), ("from", WebJSON.int(lower)),
            ("rows", .array(window)),
        ])
    }
}

/// What every page shares: the agent `--agent` chose and the TCP token.
struct WebOptions: Sendable {
    /// `--agent` (or `JARVIS_AGENT`); nil: the only agent running, or the user picks.
    var selector: String?
    /// The TCP token; nil uses the local discovery file's.
    var token: String?
}
