import JarvisCore
import JarvisRemote

/// Runs a tool call against an agent and shapes the answer.
///
/// Arguments have been checked against the tool's input schema already; what only the agent
/// can judge (a missing key, a wrong type for a declared key, a conflict) comes back as an
/// error result the model reads, never as a protocol error.
struct MCPToolRunner: Sendable {
    let bridge: MCPAgentBridge
    /// `jarvis mcp --allow-reveal`: without it no secret value ever leaves through MCP.
    let allowReveal: Bool

    /// Runs `tool` with `arguments`.
    func run(_ tool: MCPTool, _ arguments: JSONObject) -> MCPToolResult {
        let arguments = MCPArguments(arguments)
        do throws(JarvisError) {
            switch tool.name {
            case "list_agents": return listAgents()
            case "list_preferences": return try listPreferences(arguments)
            case "get_preference": return try getPreference(arguments)
            case "set_preference": return try setPreference(arguments)
            case "delete_preference": return try deletePreference(arguments)
            case "reset_preference": return try resetPreference(arguments)
            case "preference_history": return try history(arguments)
            case "check": return try check(arguments)
            case "undo_change": return try undoChange(arguments)
            case "restore_preferences": return try restorePreferences(arguments)
            case "export_snapshot": return try exportSnapshot(arguments)
            case "diff_snapshots": return try diffSnapshots(arguments)
            default: return .failure("there is no tool '\(tool.name)'")
            }
        } catch {
            return .failure(error)
        }
    }

    private func listAgents() -> MCPToolResult {
        let agents = bridge.refresh()
        var structured: JSONObject = ["agents": .array(agents.map(\.json))]
        if let chosen = bridge.chosen { structured["chosen"] = .string(chosen) }
        guard !agents.isEmpty else {
            do {
                _ = try AgentDirectory.running()
            } catch {
                return .failure(error)
            }
            return MCPToolResult(
                text:
                    "No agent is running\(bridge.chosen.map { " under '\($0)'" } ?? "") in \(RuntimeDirectory.current().url.path). Start the program (one that embeds JarvisAgent) or the demo (`jarvis demo`); if it runs, this server may have been started with another environment (set JARVIS_RUNTIME_DIR or XDG_RUNTIME_DIR in the MCP client's configuration).",
                structured: .object(structured))
        }
        let lines = agents.map { agent in
            let allows =
                agent.isProduction ? "production: read-only" : (agent.allowsEditing ? "editing allowed" : "read-only")
            return
                "\(MCPToolText.quoted(MCPAgentBridge.label(of: agent, among: agents), limit: 64)) (pid \(agent.pid.map(String.init) ?? "?"), \(allows), reveal \(agent.allowsReveal ? "allowed" : "off"), scanners \(agent.scanners.map { MCPToolText.quoted($0, limit: 64) }.joined(separator: ", ")))"
        }
        return MCPToolResult(
            text: "\(agents.count) agent(s):\n" + lines.joined(separator: "\n"), structured: .object(structured))
    }

    private func listPreferences(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        let params = Wire.ListParams(
            scanner: arguments.string("scanner"), container: arguments.string("container"),
            key: arguments.string("key"), reveal: try reveal(arguments, agent), limit: arguments.int("limit") ?? 200,
            cursor: arguments.string("cursor"))
        let page = try perform(agent, params) { client throws(JarvisError) in try client.listPage(params) }
        var structured: JSONObject = [
            "items": .array(page.items.map(WireItem.encode)), "problems": .array(page.problems.map(\.json)),
        ]
        var text = MCPToolText.lines(page.items, empty: "No preferences match.")
        if !page.problems.isEmpty { text += "\n" + MCPToolText.problems(page.problems) }
        if let cursor = page.nextCursor {
            structured["nextCursor"] = .string(cursor)
            text += "\nMore items follow: call again with cursor \"\(cursor)\" and the same filters."
        }
        return MCPToolResult(text: text, structured: .object(structured))
    }

    private func getPreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        let params = Wire.GetParams(try arguments.place(), reveal: try reveal(arguments, agent))
        let item = try perform(agent, params) { client throws(JarvisError) in
            try PlaceNames.suggesting(client, params.place) { () throws(JarvisError) in
                try client.get(params.place, reveal: params.reveal)
            }
        }
        return itemResult(item, verb: nil)
    }

    private func setPreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try writable(arguments)
        let place = try arguments.place()
        let type = try arguments.type()
        let sent = arguments.object["value"] ?? .null
        let params = Wire.SetParams(place, type: type, value: sent, expectedRevision: arguments.revision())
        // What is there decides the type (a type changes only when asked) and whether a new
        // name is a typo; nothing is written when either refuses.
        let target = try perform(agent, params) { client throws(JarvisError) in
            try SetTarget(
                place, client: client, allowNew: arguments.bool("create") == true,
                newHint: "Pass create: true to create it anyway.")
        }
        let reading = type == nil ? try ValueReading(json: sent, current: target.current) : nil
        let write = { (params: Wire.SetParams) throws(JarvisError) -> Wire.ItemResult in
            try perform(agent, params) { client throws(JarvisError) -> Wire.ItemResult in
                try PlaceNames.suggesting(client, place) { () throws(JarvisError) -> Wire.ItemResult in
                    try client.call(params, expecting: Wire.ItemResult.self)
                }
            }
        }
        let result: Wire.ItemResult
        var note: String?
        if let reading {
            let stored = try SetTarget.store(reading) { value throws(JarvisError) -> Wire.ItemResult in
                // Guarded by the revision read, as the type kept came from that reading.
                try write(Wire.SetParams(place, value: value, expectedRevision: params.expectedRevision ?? target.revision))
            }
            result = stored.result
            note = stored.note
        } else {
            result = try write(params)
        }
        var answer = itemResult(result.item, verb: "set")
        let notes = (target.createsKey ? ["this created a new key"] : []) + (note.map { [$0] } ?? [])
        if !notes.isEmpty { answer.text += "\nNote: " + notes.joined(separator: "; ") + "." }
        return answer
    }

    private func deletePreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let hasKey = arguments.string("key") != nil
        let match = arguments.string("match")
        guard hasKey != (match != nil) else {
            throw JarvisError(
                .invalidParams,
                "give either key (one value) or match (a glob of keys), not \(hasKey ? "both" : "neither")")
        }
        guard match != nil || arguments.bool("dryRun") == nil else {
            throw JarvisError(.invalidParams, "dryRun goes with match")
        }
        let agent = try writable(arguments)
        guard let match else {
            let params = Wire.DeleteParams(try arguments.place(), expectedRevision: arguments.revision())
            let item = try perform(agent, params) { client throws(JarvisError) in
                try PlaceNames.suggesting(client, params.place) { () throws(JarvisError) in
                    try client.delete(params.place, expectedRevision: params.expectedRevision)
                }
            }
            return itemResult(item, verb: "deleted")
        }
        let params = Wire.BulkDeleteParams(
            scanner: arguments.string("scanner"), container: arguments.string("container") ?? "", match: match,
            dryRun: arguments.bool("dryRun") ?? false)
        let result = try perform(agent, params) { client throws(JarvisError) in try client.deleteKeys(params) }
        let keys = result.keys
        let place = "\(result.scanner):\(MCPToolText.quoted(result.container))"
        let pattern = MCPToolText.quoted(match)
        let head =
            result.dryRun
            ? "Would delete \(keys.count) key(s) matching \(pattern) from \(place) (dry run: nothing was changed)"
            : "Deleted \(keys.count) key(s) matching \(pattern) from \(place)"
        return MCPToolResult(
            text: ([head + (keys.isEmpty ? "." : ":")] + keys.map { MCPToolText.quoted($0) }).joined(separator: "\n"),
            structured: result.json)
    }

    private func resetPreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try writable(arguments)
        let params = Wire.ResetParams(try arguments.place(pointer: false), expectedRevision: arguments.revision())
        let result = try perform(agent, params) { client throws(JarvisError) in
            try client.reset(params.place, expectedRevision: params.expectedRevision)
        }
        var structured = JSONObject()
        var lines: [String] = []
        let parts = [
            ("removed", result.removed, "Removed the stored value: ", "Nothing was stored for that key."),
            ("item", result.item, "Now: ", "The key has no default: it is absent now."),
        ]
        for (member, item, label, absent) in parts {
            guard let item else {
                lines.append(absent)
                continue
            }
            structured[member] = WireItem.encode(item)
            lines.append(label + MCPToolText.line(item))
        }
        return MCPToolResult(text: lines.joined(separator: "\n"), structured: .object(structured))
    }

    private func check(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        let params = Wire.CheckParams(container: arguments.string("container"))
        let result = try perform(agent, params) { client throws(JarvisError) in try client.check(container: params.container) }
        let lines = result.findings.map(\.finding).map { finding in
            "\(finding.kind.rawValue): \(MCPToolText.quoted(finding.container))"
                + (finding.key.map { " " + MCPToolText.quoted($0) } ?? "") + ": " + MCPToolText.printable(finding.message)
        }
        let text =
            lines.isEmpty
            ? result.nothingFound.prefix(1).uppercased() + result.nothingFound.dropFirst() + "."
            : "\(lines.count) finding(s):\n" + lines.joined(separator: "\n")
        return MCPToolResult(text: text, structured: result.json)
    }

    private func history(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        let params = Wire.HistoryParams(
            limit: arguments.int("limit"), action: arguments.string("action"), scanner: arguments.string("scanner"),
            container: arguments.string("container"), key: arguments.string("key"), client: arguments.string("client"))
        let result = try perform(agent, params) { client throws(JarvisError) in try client.history(params) }
        let records = result.records
        var text =
            records.isEmpty
            ? "No changes or reveals are recorded for these filters."
            : "\(records.count) record(s), oldest first:\n" + records.map(MCPToolText.record).joined(separator: "\n")
        var structured = result.json.objectValue ?? [:]
        // An agent older than the journal answers records only.
        let journal = Wire.JournalParams(
            limit: arguments.int("limit"), scanner: arguments.string("scanner"),
            container: arguments.string("container"), key: arguments.string("key"))
        if arguments.string("action") == nil, arguments.string("client") == nil,
            let page = try? perform(agent, journal, { client throws(JarvisError) in try client.journal(journal) })
        {
            structured["entries"] = .array(page.entries.map(\.json))
            text +=
                "\n\nJournal (undo_change takes an entry's id), oldest first:\n"
                + (page.entries.isEmpty
                    ? "no changes yet" : page.entries.map(MCPToolText.journalEntry).joined(separator: "\n"))
        }
        return MCPToolResult(text: text, structured: .object(structured))
    }

    /// The agent for a writing tool, refused when it does not allow editing.
    func writable(_ arguments: MCPArguments) throws(JarvisError) -> MCPAgent {
        let agent = try bridge.agent(for: arguments.string("agent"))
        guard agent.allowsEditing else {
            let why = agent.isProduction ? "it runs the production configuration" : "it was started read-only"
            throw JarvisError(
                .readOnly,
                "the agent '\(agent.name)' does not allow editing (\(why)), so the writing tools are off for it; read values with get_preference or list_preferences"
            )
        }
        return agent
    }

    /// Whether to ask for secret values: when the call asks and both this server's
    /// `--allow-reveal` and the agent allow it.
    /// - Throws: ``JarvisError`` `.unauthorized` when the call asks but either refuses.
    func reveal(_ arguments: MCPArguments, _ agent: MCPAgent) throws(JarvisError) -> Bool {
        guard arguments.bool("reveal") == true else { return false }
        guard allowReveal else {
            throw JarvisError(
                .unauthorized, "revealing secrets is off in this MCP server; start it with jarvis mcp --allow-reveal")
        }
        guard agent.allowsReveal else {
            throw JarvisError(
                .unauthorized,
                "the agent '\(agent.name)' does not allow revealing secrets\(agent.isProduction ? " (production)" : "; it must run with allowsReveal (jarvis-agent --allow-reveal)")"
            )
        }
        return true
    }

    /// Runs one agent call with `params` through `body`; a lost connection is forgotten (the
    /// next call connects again) and a request larger than the agent takes is refused here,
    /// before it costs the connection.
    func perform<P: WireParams, R>(
        _ agent: MCPAgent, _ params: P, _ body: (JarvisClient) throws(JarvisError) -> R
    ) throws(JarvisError) -> R {
        let size = JSONWriter.bytes(.object(params.json)).count + 256
        guard size <= agent.maxLineLength else {
            throw JarvisError(
                .tooLarge,
                "the request is \(size) bytes, over the \(agent.maxLineLength) bytes the agent '\(agent.name)' accepts in one message; send a smaller value"
            )
        }
        do {
            return try body(agent.client)
        } catch {
            if error.code == .unavailable { bridge.forget(agent.key) }
            throw error
        }
    }

    private func itemResult(_ item: PreferenceItem, verb: String?) -> MCPToolResult {
        let text = (verb.map { "\($0.prefix(1).uppercased())\($0.dropFirst()): " } ?? "") + MCPToolText.line(item)
        return MCPToolResult(text: text, structured: Wire.ItemResult(item).json)
    }
}
