import JarvisCore
import JarvisInspector
import JarvisRemote

extension WebPageState {
    /// Everything the page draws now but the table's rows (fetched by window).
    mutating func view() -> JSONValue {
        let now = ContinuousClock.now
        let news = changed.withLock { flag -> Bool in
            defer { flag = false }
            return flag
        }
        if news { tableDirty = true }
        connection?.session.expireHighlights()
        let rows = currentRows(now: now)
        version += 1
        var pairs: [(String, JSONValue)] = [
            ("version", WebJSON.int(version)),
            ("agents", agentsJSON()),
            ("filter", .string(filter.text)),
            (
                "chips",
                .array(
                    InspectorChip.all.map { chip in
                        WebJSON.object([
                            ("id", .string(chip.id)), ("label", .string(chip.description)), ("on", .bool(chips.contains(chip))),
                        ])
                    })
            ),
            ("table", WebJSON.object([("total", WebJSON.int(rows.count)), ("version", WebJSON.int(rowsVersion))])),
            ("sort", WebJSON.object([("column", .string(sort.column.rawValue)), ("descending", .bool(sort.descending))])),
            ("message", message.map(WebJSON.message) ?? .null),
        ]
        guard let connection else {
            pairs.append(("agent", .null))
            pairs.append(
                (
                    "connection",
                    WebJSON.object([
                        ("state", "none"), ("message", WebJSON.text(connectProblem)), ("choose", .bool(choosing)),
                    ])
                ))
            pairs.append(("canEdit", false))
            pairs.append(("scanners", .array([])))
            return WebJSON.object(pairs)
        }
        let state = connection.session.state
        let hello = state.hello
        pairs.append(
            (
                "agent",
                WebJSON.object([
                    ("name", .string(VisibleText.escaped(hello.agent))), ("pid", WebJSON.int(Int(hello.pid))),
                    ("platform", .string(hello.platform)), ("address", .string(connection.endpoint.description)),
                ])
            ))
        let live: JSONValue
        if isGone {
            live = WebJSON.object([("state", "gone"), ("message", .string(InspectorMessage.agentGone(state).text))])
        } else if state.isLive {
            live = WebJSON.object([("state", "live"), ("message", .null)])
        } else {
            live = WebJSON.object([("state", "static"), ("message", WebJSON.text(state.liveProblem))])
        }
        pairs.append(("connection", live))
        pairs.append(("banner", WebJSON.text(state.banner)))
        pairs.append(("canEdit", .bool(canEdit)))
        pairs.append(("scanners", scannersJSON(state)))
        pairs.append(
            (
                "scope",
                WebJSON.object([
                    ("scanner", WebJSON.text(scope.scanner)), ("container", WebJSON.text(scope.container)),
                    ("title", .string(scopeTitle(state))),
                ])
            ))
        if let selected, let address = selected.address, let detail = state.detail(address, selected.pointer) {
            let value = state.value(at: address, selected.pointer)
            let json = value.map { ValueFormat.full($0, limit: 256 * 1024) }
            var shown = WebJSON.detail(
                detail, copy: state.copyTexts(for: selected),
                canReset: canEdit && detail.row.isResettable, json: json, jsonNote: value.flatMap(ValueFormat.jsonNote))
            if !canEdit, case .object(var object) = shown, case .object(var actions)? = object["actions"] {
                actions["edit"] = false
                actions["delete"] = false
                actions["reset"] = false
                actions["replace"] = false
                actions["quickEdit"] = .null
                actions["addElement"] = .null
                object["actions"] = .object(actions)
                shown = .object(object)
            }
            pairs.append(("detail", shown))
            pairs.append(("timeline", timelineJSON(address, session: connection.session)))
        } else {
            pairs.append(("detail", .null))
            pairs.append(("timeline", .null))
        }
        pairs.append(
            ("draft", draft.map { WebJSON.draft($0, text: draftText, problem: draftProblem, zone: draftZone) } ?? .null))
        pairs.append(("question", asking ? WebJSON.text(draft?.confirmation) : .null))
        pairs.append(("conflict", conflict.map(WebJSON.conflict) ?? .null))
        pairs.append(
            (
                "bulk",
                bulk.map { deletion in
                    WebJSON.object([
                        ("count", WebJSON.int(deletion.entries.count)),
                        ("skipped", WebJSON.int(deletion.skipped)),
                        ("question", .string(deletion.question)),
                        (
                            "keys",
                            .array(
                                deletion.entries.map {
                                    .string(VisibleText.escaped($0.address.container + " · " + $0.address.key))
                                })
                        ),
                    ])
                } ?? .null
            ))
        pairs.append(("add", adding && canEdit ? addJSON(state) : .null))
        pairs.append(("canBulkDelete", .bool(canEdit && !rows.isEmpty && (!filter.isEmpty || !chips.isEmpty))))
        return WebJSON.object(pairs)
    }

    /// The selected key's changes from the agent's journal, newest first, each with Revert
    /// where the model offers it; read again only when the key or the model changed.
    private mutating func timelineJSON(_ address: PreferenceAddress, session: InspectorSession) -> JSONValue {
        let generation = session.state.generation
        if timeline?.address != address || timeline?.generation != generation {
            let entries: Result<[InspectorTimelineEntry], JarvisError>
            do {
                entries = .success(try session.timeline(of: address))
            } catch {
                entries = .failure(error)
            }
            timeline = (address, generation, entries)
        }
        switch timeline?.entries {
        case .success(let entries)?:
            return WebJSON.object([("entries", .array(entries.map(WebJSON.timelineEntry))), ("problem", .null)])
        case .failure(let error)?:
            return WebJSON.object([("entries", .array([])), ("problem", .string(error.message))])
        case nil:
            return .null
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

    private mutating func scannersJSON(_ state: InspectorState) -> JSONValue {
        var perContainer: [String: Int] = [:]
        var perScanner: [String: Int] = [:]
        let sizes = state.containerSizes()
        for address in state.items.keys {
            perScanner[address.scanner, default: 0] += 1
            perContainer[address.scanner + "\u{0}" + address.container, default: 0] += 1
        }
        return .array(
            state.scanners.map { scanner in
                WebJSON.object([
                    ("id", .string(scanner.id)), ("title", .string(VisibleText.escaped(scanner.name))),
                    ("count", WebJSON.int(perScanner[scanner.id] ?? 0)),
                    ("problem", scanner.available ? .null : .string(scanner.reason ?? "unavailable")),
                    (
                        "containers",
                        .array(
                            state.containers(of: scanner.id).map { container in
                                WebJSON.object([
                                    ("name", .string(container.name)),
                                    ("title", .string(VisibleText.escaped(container.name))),
                                    ("count", WebJSON.int(perContainer[scanner.id + "\u{0}" + container.name] ?? 0)),
                                    ("problem", WebJSON.text(container.problem)),
                                    (
                                        "sizeWarning",
                                        WebJSON.text(
                                            sizes[PreferenceAddress(scanner: scanner.id, container: container.name, key: "")]?
                                                .warning)
                                    ),
                                    ("readOnly", .bool(!container.writable || !state.canEdit)),
                                ])
                            })
                    ),
                ])
            })
    }

    /// What "Add key" offers, as the model decided: the writable containers of the scope,
    /// the types each takes, and the catalog's declared keys with nothing stored first.
    private mutating func addJSON(_ state: InspectorState) -> JSONValue {
        let choices = state.addChoices(scanner: scope.scanner).filter { scope.container == nil || $0.container == scope.container }
        return WebJSON.object([
            (
                "containers",
                .array(
                    choices.map { choice in
                        WebJSON.object([
                            ("scanner", .string(choice.scanner)), ("container", .string(choice.container)),
                            ("title", .string(choice.title)),
                            ("types", .array(choice.types.map { .string($0.rawValue) })),
                        ])
                    })
            ),
            (
                "suggestions",
                .array(
                    choices.flatMap { choice in
                        choice.suggestions.prefix(200).map { suggestion in
                            WebJSON.object([
                                ("scanner", .string(choice.scanner)), ("container", .string(choice.container)),
                                ("key", .string(suggestion.key)), ("type", .string(suggestion.type.rawValue)),
                                ("about", WebJSON.text(suggestion.description)),
                            ])
                        }
                    })
            ),
        ])
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
    private mutating func agentsJSON() -> JSONValue {
        let records = agentRecords(now: .now)
        let open = connection?.endpoint
        var list: [JSONValue] = records.map { record in
            WebJSON.object([
                ("id", .string(String(record.pid))),
                ("title", .string(VisibleText.escaped(record.name))),
                ("subtitle", .string(VisibleText.escaped("pid \(record.pid)" + (record.bundleID.map { " · " + $0 } ?? "")))),
                ("group", .string(VisibleText.escaped(record.device.map { "Simulator · " + $0 } ?? "This computer"))),
                ("current", .bool(open.map { record.serves($0) } ?? false)),
            ])
        }
        // `--agent tcp://…` under Network, unless it is an agent of this computer listed above.
        if let selector = options.selector, selector.hasPrefix("tcp://"),
            let endpoint = try? Endpoint(parsing: selector), !records.contains(where: { $0.serves(endpoint) })
        {
            list.append(
                WebJSON.object([
                    ("id", .string(selector)), ("title", .string(networkName ?? selector)),
                    ("subtitle", .string(selector)), ("group", "Network"),
                    ("current", .bool(open == endpoint)),
                ]))
        }
        return .array(list)
    }
}

extension AgentRecord {
    /// Whether this agent listens at `endpoint` (its Unix socket or its TCP address).
    fileprivate func serves(_ endpoint: Endpoint) -> Bool {
        self.endpoint == endpoint || tcp.flatMap { try? Endpoint(parsing: $0) } == endpoint
    }
}
