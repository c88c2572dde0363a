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
        /// The agent's session and tables, shared with every page open on it.
        var listing: WebListing
        /// This page's handler on the shared session.
        var observation: InspectorObservation
        /// Whether the agent went away and when to look for it again (the model's decision).
        var reconnection: InspectorReconnection
        /// The model's ``InspectorState/changeSerial`` when the page opened it: the Changed
        /// chip shows the keys changed since.
        var openedSerial: Int

        var session: InspectorSession { listing.session }
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
    /// The selected key's timeline, as of the model's row log position it was read at (read again
    /// when the key or the model changes); the agent's refusal when it has no journal.
    var timeline: (
        address: PreferenceAddress, position: InspectorRowLog.Position, entries: Result<[InspectorTimelineEntry], JarvisError>
    )?
    var adding = false
    /// The selected key compared on every agent (closed when another key is chosen).
    var keyFleet: WebKeyFleet?
    /// The container in view compared with another agent or a snapshot file.
    var comparison: WebContainerCompare?
    var message: InspectorMessage?
    /// The rows the table shows: ``table``'s, through the filter.
    var rows = InspectorRowChunks()
    /// Grows when rows came, went or moved: the browser forgets every row it holds.
    var rowsVersion = 0
    /// Grows when rows changed in place; ``patched`` holds their indices until a view tells them.
    var rowsRevision = 0
    var patched: Set<Int> = []
    /// The revision the last view told.
    var toldRevision = 0
    /// The filter changed: ``rows`` is found again in ``table``.
    var rowsDirty = true
    /// The scope's rows under the chips, unfiltered, as the listing gave them.
    var table = InspectorFilteredRows()
    /// The listing's version and revision of ``table``.
    var listed: (version: Int, revision: Int)?
    /// The scope or the chips changed: every row is taken again.
    var tableDirty = true
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
        let listing = try options.listings.listing(
            for: endpoint, token: token(for: endpoint, selector: selector))
        let observation = listing.session.observe { [changed, onChange] in
            changed.withLock { $0 = true }
            onChange()
        }
        close()
        let state = listing.session.state
        connection = Connection(
            endpoint: endpoint, listing: listing, observation: observation,
            reconnection: InspectorReconnection(selector: selector ?? state.hello.agent, state: state),
            openedSerial: state.changeSerial)
        connectProblem = nil
        tableDirty = true
        if selector == options.selector, options.selector?.hasPrefix("tcp://") == true {
            networkName = state.hello.agent
        }
    }

    /// The token for `endpoint`: the one the user gave (`--token-file`, `JARVIS_TOKEN`) only
    /// for the agent `--agent` named, so switching to another agent that serves TCP never
    /// hands it that token; any other agent's comes from its own discovery file.
    private func token(for endpoint: Endpoint, selector: String?) -> String? {
        if let token = options.token, selector == options.selector { return token }
        return AgentLocator.localToken(for: endpoint)
    }

    /// Lets go of the agent's listing (its session closes with its last page).
    mutating func close() {
        keyFleet?.close()
        keyFleet = nil
        comparison = nil
        guard let connection else { return }
        connection.observation.cancel()
        options.listings.release(connection.listing)
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
        refreshFleet(now: .now)
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

    /// The table's rows: the listing's, patched in place when only values changed (their
    /// indices wait in ``patched`` for the next view), taken whole when rows came or went, or
    /// the scope, the chips or the filter changed.
    mutating func currentRows(now: ContinuousClock.Instant) -> InspectorRowChunks {
        guard let connection else {
            if !rows.isEmpty || listed != nil {
                rows = []
                listed = nil
                patched = []
                rowsVersion += 1
            }
            return rows
        }
        let scope = WebListing.Scope(
            scanner: scope.scanner, container: scope.container, chips: Set(chips.map { shown($0) }))
        let taken = connection.listing.rows(scope, since: tableDirty ? nil : listed, now: now)
        let news = listed.map { $0 != (taken.version, taken.revision) } ?? true
        guard news || tableDirty || rowsDirty else { return rows }
        listed = (taken.version, taken.revision)
        // In the table's own order (by key, either way) a row keeps its place when its value
        // changes; sorted by type or value it may move.
        let inKeyOrder = sort.column == .key
        let ordered =
            sort == .natural
            ? taken.rows : InspectorRowChunks(connection.session.state.sorted(Array(taken.rows), by: sort))
        table.replace(with: ordered)
        if let indices = taken.patched, inKeyOrder, !tableDirty, !rowsDirty, filter.isEmpty {
            // Values changed in place: the same rows at the same indices.
            rows = ordered
            patched.formUnion(sort.descending ? indices.map { ordered.count - 1 - $0 } : indices)
            rowsRevision += 1
            return rows
        }
        tableDirty = false
        rows = table.rows(filter)
        rowsDirty = false
        rowsVersion += 1
        patched = []
        return rows
    }

    /// A row as the table shows it: inside one container, its name beside every key says nothing.
    func shown(_ row: InspectorRow) -> WebRow {
        var shown = WebRow(row)
        if scope.container != nil { shown.container = nil }
        return shown
    }

    /// The table as a view tells it, with the rows patched since the last view; the next
    /// view tells what changes after this one.
    mutating func tableInfo() -> WebTableInfo {
        let patches = patched.sorted().filter { $0 < rows.count }.map { WebTablePatch(index: $0, row: shown(rows[$0])) }
        defer {
            patched = []
            toldRevision = rowsRevision
        }
        return WebTableInfo(
            total: rows.count, version: rowsVersion, revision: rowsRevision, from: toldRevision, patches: patches)
    }

    /// A window of the table.
    mutating func rowsWindow(from start: Int, count: Int) -> WebRowsWindow {
        let all = currentRows(now: .now)
        let lower = max(0, min(start, all.count))
        let upper = max(lower, min(all.count, lower + max(0, min(count, 500))))
        return WebRowsWindow(
            version: rowsVersion, revision: rowsRevision, total: all.count, from: lower,
            rows: all[lower..<upper].map(shown))
    }

    /// The chip as this page means it: Changed is what changed since the page opened the agent.
    func shown(_ chip: InspectorChip) -> InspectorChip {
        guard chip == .changed, let connection else { return chip }
        return .changedSince(connection.openedSerial)
    }
}
