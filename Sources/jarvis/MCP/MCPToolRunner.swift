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
                    "No agent is running\(bridge.chosen.map { " under '\($0)'" } ?? "") in \(RuntimeDirectory.current().url.path). Start the program (one that embeds JarvisAgent) or `jarvis-agent --demo`; if it runs, this server may have been started with another environment (set JARVIS_RUNTIME_DIR or XDG_RUNTIME_DIR in the MCP client's configuration).",
                structured: .object(structured))
        }
        let lines = agents.map { agent in
            let allows =
                agent.isProduction ? "production: read-only" : (agent.allowsEditing ? "editing allowed" : "read-only")
            return
                "\(MCPAgentBridge.label(of: agent, among: agents)) (pid \(agent.pid.map(String.init) ?? "?"), \(allows), reveal \(agent.allowsReveal ? "allowed" : "off"), scanners \(agent.scanners.joined(separator: ", ")))"
        }
        return MCPToolResult(
            text: "\(agents.count) agent(s):\n" + lines.joined(separator: "\n"), structured: .object(structured))
    }

    private func listPreferences(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        var params = arguments.params(["scanner", "container", "key", "cursor"])
        params["limit"] = .number(JSONNumber(arguments.int("limit") ?? 200))
        try reveal(arguments, agent, into: &params)
        let result = try call(agent, "list", params)
        let items = try Self.items(result["items"])
        var structured: JSONObject = ["items": result["items"] ?? [], "problems": result["problems"] ?? []]
        var text = MCPToolText.lines(items, empty: "No preferences match.")
        let problems = result["problems"]?.arrayValue ?? []
        if !problems.isEmpty { text += "\n" + MCPToolText.problems(problems) }
        if let cursor = result["nextCursor"]?.stringValue {
            structured["nextCursor"] = .string(cursor)
            text += "\nMore items follow: call again with cursor \"\(cursor)\" and the same filters."
        }
        return MCPToolResult(text: text, structured: .object(structured))
    }

    private func getPreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        var params = arguments.params(["scanner", "container", "key", "pointer"])
        try reveal(arguments, agent, into: &params)
        return try itemResult(try call(agent, "get", params), verb: nil)
    }

    private func setPreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try writable(arguments)
        let params = arguments.params(["scanner", "container", "key", "value", "type", "pointer", "expectedRevision"])
        return try itemResult(try call(agent, "set", params), verb: "set")
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
            let params = arguments.params(["scanner", "container", "key", "pointer", "expectedRevision"])
            return try itemResult(try call(agent, "delete", params), verb: "deleted")
        }
        let params = arguments.params(["scanner", "container", "match", "dryRun"])
        let result = try call(agent, "delete", params)
        let keys = (result["keys"]?.arrayValue ?? []).compactMap(\.stringValue)
        let place = "\(result["scanner"]?.stringValue ?? ""):\(result["container"]?.stringValue ?? "")"
        let dryRun = result["dryRun"] == .bool(true)
        let head =
            dryRun
            ? "Would delete \(keys.count) key(s) matching '\(match)' from \(place) (dry run: nothing was changed)"
            : "Deleted \(keys.count) key(s) matching '\(match)' from \(place)"
        return MCPToolResult(
            text: ([head + (keys.isEmpty ? "." : ":")] + keys).joined(separator: "\n"), structured: result)
    }

    private func resetPreference(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try writable(arguments)
        let result = try call(agent, "reset", arguments.params(["scanner", "container", "key", "expectedRevision"]))
        var structured = JSONObject()
        var lines: [String] = []
        let parts = [
            ("removed", "Removed the stored value: ", "Nothing was stored for that key."),
            ("item", "Now: ", "The key has no default: it is absent now."),
        ]
        for (member, label, absent) in parts {
            guard let raw = result[member] else {
                lines.append(absent)
                continue
            }
            let item = try WireItem.decode(raw)
            structured[member] = WireItem.encode(item)
            lines.append(label + MCPToolText.line(item))
        }
        return MCPToolResult(text: lines.joined(separator: "\n"), structured: .object(structured))
    }

    private func history(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        let result = try call(
            agent, "history", arguments.params(["scanner", "container", "key", "action", "client", "limit"]))
        let records = result["records"]?.arrayValue ?? []
        let text =
            records.isEmpty
            ? "No changes or reveals are recorded for these filters."
            : "\(records.count) record(s), oldest first:\n" + records.map(MCPToolText.record).joined(separator: "\n")
        return MCPToolResult(text: text, structured: result)
    }

    /// The agent for a writing tool, refused when it does not allow editing.
    private func writable(_ arguments: MCPArguments) throws(JarvisError) -> MCPAgent {
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

    /// Adds `reveal` to the params when asked for and allowed twice over: by this server's
    /// `--allow-reveal` and by the agent.
    func reveal(_ arguments: MCPArguments, _ agent: MCPAgent, into params: inout JSONObject) throws(JarvisError) {
        guard arguments.bool("reveal") == true else { return }
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
        params["reveal"] = true
    }

    /// Calls the agent; a lost connection is forgotten (the next call connects again) and a
    /// request larger than the agent takes is refused here, before it costs the connection.
    func call(_ agent: MCPAgent, _ method: String, _ params: JSONObject) throws(JarvisError) -> JSONValue {
        let size = JSONWriter.bytes(.object(params)).count + 256
        guard size <= agent.maxLineLength else {
            throw JarvisError(
                .tooLarge,
                "the request is \(size) bytes, over the \(agent.maxLineLength) bytes the agent '\(agent.name)' accepts in one message; send a smaller value"
            )
        }
        do {
            return try agent.client.call(method, params)
        } catch {
            if error.code == .unavailable { bridge.forget(agent.key) }
            throw error
        }
    }

    private func itemResult(_ result: JSONValue, verb: String?) throws(JarvisError) -> MCPToolResult {
        let item = try WireItem.decode(result["item"] ?? .null)
        let text = (verb.map { "\($0.prefix(1).uppercased())\($0.dropFirst()): " } ?? "") + MCPToolText.line(item)
        return MCPToolResult(text: text, structured: .object(["item": WireItem.encode(item)]))
    }

    static func items(_ raw: JSONValue?) throws(JarvisError) -> [PreferenceItem] {
        var items: [PreferenceItem] = []
        for element in raw?.arrayValue ?? [] { items.append(try WireItem.decode(element)) }
        return items
    }
}
