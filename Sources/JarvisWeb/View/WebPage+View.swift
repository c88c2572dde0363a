import JarvisCore
import JarvisInspector
import JarvisRemote

extension WebPageState {
    /// Everything the page draws now but the table's rows (fetched by window).
    mutating func view() -> WebView {
        let now = ContinuousClock.now
        // The news is the listing's to find: this view takes whatever changed.
        changed.withLock { $0 = false }
        let rows = currentRows(now: now)
        version += 1
        var view = WebView(
            version: version, agents: agentChoices(), filter: filter.text,
            chips: InspectorChip.all.map { WebChip(id: $0.id, label: shown($0).description, on: chips.contains($0)) },
            table: tableInfo(), sort: WebSort(column: sort.column.rawValue, descending: sort.descending),
            message: message.map(WebMessage.init), agent: nil,
            connection: WebConnection(state: "none", message: connectProblem, choose: choosing), banner: nil,
            canEdit: false, scanners: [], scope: nil, detail: nil, timeline: nil, draft: nil, question: nil,
            conflict: nil, bulk: nil, add: nil, canBulkDelete: false, fleet: nil, comparison: nil, compareOffer: nil)
        guard let connection else { return view }
        let state = connection.session.state
        let hello = state.hello
        view.agent = WebAgentInfo(name: VisibleText.escaped(hello.agent), pid: Int(hello.pid), platform: hello.platform)
        if isGone {
            view.connection = WebConnection(
                state: "gone", message: InspectorMessage.agentGone(state).text, choose: false)
        } else if state.isLive {
            view.connection = WebConnection(state: "live", message: nil, choose: false)
        } else {
            view.connection = WebConnection(state: "static", message: state.liveProblem, choose: false)
        }
        view.banner = state.banner
        view.canEdit = canEdit
        view.scanners = scanners(state)
        view.scope = WebScope(scanner: scope.scanner, container: scope.container)
        if let selected, let address = selected.address, let detail = state.detail(address, selected.pointer) {
            let value = state.value(at: address, selected.pointer)
            let json = value.map { ValueFormat.full($0, limit: 256 * 1024) }
            view.detail = WebDetail(
                detail, copy: state.copyTexts(for: selected), canEdit: canEdit, json: json,
                jsonNote: value.flatMap(ValueFormat.jsonNote))
            view.timeline = timeline(address, session: connection.session)
        }
        view.draft = draft.map { WebDraft($0, text: draftText, problem: draftProblem, zone: draftZone) }
        view.question = asking ? draft?.confirmation : nil
        view.conflict = conflict.map(WebConflict.init)
        view.bulk = bulk.map { deletion in
            WebBulk(
                count: deletion.entries.count, question: deletion.question,
                keys: deletion.entries.map { VisibleText.escaped($0.address.container + " · " + $0.address.key) })
        }
        view.add = adding && canEdit ? addition(state) : nil
        view.canBulkDelete = canEdit && !rows.isEmpty && (!filter.isEmpty || !chips.isEmpty)
        if let fleet = keyFleet, fleet.target != selected {
            // The comparison follows the key in view: another key closes it.
            fleet.close()
            keyFleet = nil
        }
        if let compared = comparison, compared.scanner != scope.scanner || compared.container != scope.container {
            // The comparison is the container in view's: another scope closes it.
            comparison = nil
        }
        view.fleet = fleetView()
        view.comparison = comparisonView()
        view.compareOffer = compareOffer()
        return view
    }

    /// The selected key's changes from the agent's journal, newest first, each with Revert
    /// where the model offers it; read again only when another key is chosen or this key's row
    /// may read differently (the row log notes it), not on every change elsewhere.
    private mutating func timeline(_ address: PreferenceAddress, session: InspectorSession) -> WebTimeline? {
        let log = session.state.rowLog
        // Read again only when this key's row may read differently since (a change to it, an
        // agent that came back): a change to another key leaves its history as it was.
        if let known = timeline, known.address == address, let notes = log.notes(since: known.position),
            !notes.contains(where: { $0.address == address })
        {
            timeline?.position = log.position
        } else {
            let entries: Result<[InspectorTimelineEntry], JarvisError>
            do {
                entries = .success(try session.timeline(of: address))
            } catch {
                entries = .failure(error)
            }
            timeline = (address, log.position, entries)
        }
        switch timeline?.entries {
        case .success(let entries)?: return WebTimeline(entries: entries.map(WebTimelineEntry.init), problem: nil)
        case .failure(let error)?: return WebTimeline(entries: [], problem: error.message)
        case nil: return nil
        }
    }

    /// When the stream must redraw even without news: a change mark ends.
    mutating func nextDeadline() -> ContinuousClock.Instant? {
        connection?.session.state.nextHighlightEnd(now: .now)
    }

    private mutating func scopeTitle(_ state: InspectorState) -> String {
        if let container = scope.container { return VisibleText.escaped(container) }
        if let scanner = scope.scanner {
            return VisibleText.escaped(state.scanners.first { $0.id == scanner }?.name ?? scanner)
        }
        return "All keys"
    }

    private mutating func scanners(_ state: InspectorState) -> [WebScanner] {
        guard let counts = connection?.listing.counts(state) else { return [] }
        let (perScanner, perContainer) = (counts.perScanner, counts.perContainer)
        return state.scanners.map { scanner in
            WebScanner(
                id: scanner.id, title: VisibleText.escaped(scanner.name), count: perScanner[scanner.id] ?? 0,
                problem: scanner.available ? nil : scanner.reason ?? "unavailable",
                containers: state.containers(of: scanner.id, holding: counts.holding[scanner.id] ?? []).map {
                    container in
                    let place = scanner.id + "\u{0}" + container.name
                    return WebContainer(
                        name: container.name, title: VisibleText.escaped(container.name),
                        count: perContainer[place] ?? 0, problem: container.problem,
                        sizeWarning: counts.sizeWarning(place))
                })
        }
    }

    /// What "Add key" offers, as the model decided: the writable containers of the scope,
    /// the types each takes, and the catalog's declared keys with nothing stored first.
    private mutating func addition(_ state: InspectorState) -> WebAdd {
        let choices = state.addChoices(scanner: scope.scanner).filter {
            scope.container == nil || $0.container == scope.container
        }
        return WebAdd(
            containers: choices.map { choice in
                WebAddContainer(
                    scanner: choice.scanner, container: choice.container, title: choice.title,
                    types: choice.types.map(\.rawValue))
            },
            suggestions: choices.flatMap { choice in
                choice.suggestions.prefix(200).map { suggestion in
                    WebSuggestion(
                        scanner: choice.scanner, container: choice.container, key: suggestion.key,
                        type: suggestion.type.rawValue, about: suggestion.description)
                }
            })
    }

    /// The running agents, read from the runtime folder at most once a second.
    private mutating func agentRecords(now: ContinuousClock.Instant) -> [AgentRecord] {
        if let last = lastAgents, now - last.at < .seconds(1) { return last.records }
        let records = (try? AgentDirectory.running()) ?? []
        lastAgents = (now, records)
        return records
    }

    /// Redraws the sidebar when an agent started or stopped since the page last read them,
    /// so an open page lists what runs without a reload.
    mutating func noticeAgents(now: ContinuousClock.Instant) {
        let before = lastAgents?.records
        let records = agentRecords(now: now)
        if let before, before != records { changed.withLock { $0 = true } }
    }

    /// The agents to pick from: local programs, Simulator apps grouped by device, and the
    /// one `--agent` named. Read from the runtime folder at most once a second.
    private mutating func agentChoices() -> [WebAgentChoice] {
        let records = agentRecords(now: .now)
        let open = connection?.endpoint
        var list = records.map { record in
            WebAgentChoice(
                id: String(record.pid), title: VisibleText.escaped(record.name),
                subtitle: VisibleText.escaped("pid \(record.pid)" + (record.bundleID.map { " · " + $0 } ?? "")),
                group: VisibleText.escaped(record.device.map { "Simulator · " + $0 } ?? "This computer"),
                current: open.map { record.serves($0) } ?? false)
        }
        // `--agent tcp://…` under Network, unless it is an agent of this computer listed above.
        if let selector = options.selector, selector.hasPrefix("tcp://"),
            let endpoint = try? Endpoint(parsing: selector), !records.contains(where: { $0.serves(endpoint) })
        {
            list.append(
                WebAgentChoice(
                    id: selector, title: networkName ?? selector, subtitle: selector, group: "Network",
                    current: open == endpoint))
        }
        return list
    }
}
