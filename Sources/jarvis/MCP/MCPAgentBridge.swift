import Foundation
import JarvisCore
import JarvisRemote

/// The MCP server's side of the agents: which agents it serves, one cached connection per
/// agent, and the choice a tool call's `agent` argument makes.
///
/// The agents served are the one `--agent` (or `JARVIS_AGENT`) names or, without either,
/// every agent running for this user. ``refresh()`` runs about once a second: it pings each
/// connection and reconnects or drops it, so an agent that restarts (with another
/// configuration, perhaps) is seen with its new `hello`.
final class MCPAgentBridge: Sendable {
    /// What `--agent` or `JARVIS_AGENT` chose; nil serves every running agent.
    let chosen: String?
    private let token: String?
    private let clientName = Locked<String>("jarvis-mcp")
    private let connections = Locked<[String: MCPAgent]>([:])

    init(selector: String?, token: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        chosen = selector ?? environment["JARVIS_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
        self.token = token
    }

    /// Sets the name the agents' audit trails record for this client: the MCP client's
    /// `clientInfo.name`. Connections made before keep theirs, so it is set before any.
    func setClientName(_ name: String) {
        // A name is a label, not a payload: a client sending a huge one still gets connected.
        clientName.withLock { $0 = String(name.prefix(Self.maxClientName)) }
    }

    /// The longest client name passed on to the agents.
    static let maxClientName = 200

    /// The agents served now, connected; pinging each and reconnecting where needed.
    func refresh() -> [MCPAgent] {
        // An unsafe runtime folder serves nothing; list_agents says why.
        let running = (try? AgentDirectory.running()) ?? []
        var wanted: [(endpoint: Endpoint, record: AgentRecord?)] = []
        if let chosen {
            if let endpoint = try? AgentLocator.endpoint(for: chosen) {
                wanted = [(endpoint, Self.record(of: endpoint, in: running))]
            }
        } else {
            wanted = running.compactMap { record in record.endpoint.map { ($0, record) } }
        }
        var served: [MCPAgent] = []
        for (endpoint, record) in wanted {
            if let known = connections.current[endpoint.description],
                known.record?.pid == record?.pid, (try? known.client.ping()) != nil
            {
                served.append(known)
                continue
            }
            forget(endpoint.description)
            if let agent = try? connect(endpoint, record: record) { served.append(agent) }
        }
        let keys = Set(served.map(\.key))
        let stale = connections.withLock { state -> [MCPAgent] in
            let gone = state.values.filter { !keys.contains($0.key) }
            for agent in gone { state.removeValue(forKey: agent.key) }
            return gone
        }
        for agent in stale { agent.client.close() }
        return served.sorted { ($0.name, $0.pid ?? 0) < ($1.name, $1.pid ?? 0) }
    }

    /// The agent a tool call is for. Its `agent` argument is chosen by a model (and a stored
    /// value with instructions in it can steer that), so it never widens what the user chose:
    /// with `--agent` (or `JARVIS_AGENT`) every other agent is refused; without it, only the
    /// agents `list_agents` shows (this user's discovered agents) are accepted, by name, pid,
    /// bundle id or the address they listed, never an address of the model's own.
    /// - Throws: ``JarvisError`` `.notFound` listing the running agents when none or several
    ///   fit, `.unauthorized` for an agent outside that choice.
    func agent(for argument: String?) throws(JarvisError) -> MCPAgent {
        if let chosen {
            let pinned = try AgentLocator.endpoint(for: chosen)
            guard let argument, !argument.isEmpty else { return try connected(pinned) }
            if let match = try discovered(argument), match.endpoint == pinned { return try connected(pinned) }
            if (try? Endpoint(parsing: argument)) == pinned || argument == chosen { return try connected(pinned) }
            throw JarvisError(
                .unauthorized,
                "this MCP server serves only the agent chosen with --agent (\(chosen)); '\(argument)' is another agent, so nothing was read or written there; leave the agent argument out"
            )
        }
        guard let argument, !argument.isEmpty else {
            do {
                return try connected(try AgentLocator.endpoint(for: nil))
            } catch where error.code == .notFound && error.message.hasPrefix("several agents") {
                // In a tool call the choice is the tool's own argument, not a command-line option.
                throw JarvisError(
                    .notFound,
                    "several agents are running; pass the tool's agent argument (a name or pid from list_agents)")
            }
        }
        guard let match = try discovered(argument), let endpoint = match.endpoint else {
            throw JarvisError(
                .unauthorized,
                "'\(argument)' is not one of the agents list_agents shows; pass a name, pid or bundle id from list_agents (addresses of other agents are not accepted)"
            )
        }
        return try connected(endpoint)
    }

    /// The discovered agent an argument names: by name, pid, bundle id, or the address its
    /// record lists; nil when none does.
    /// - Throws: ``JarvisError`` `.notFound` when several share the name.
    private func discovered(_ argument: String) throws(JarvisError) -> AgentRecord? {
        let running = (try? AgentDirectory.running()) ?? []
        let parsed = try? Endpoint(parsing: argument)
        let matches = running.filter { record in
            record.name == argument || String(record.pid) == argument || record.bundleID == argument
                || (parsed != nil && (record.endpoint == parsed || record.tcp.flatMap { try? Endpoint(parsing: $0) } == parsed))
        }
        if matches.count > 1 {
            throw JarvisError(
                .notFound,
                "several agents are named '\(argument)'; pass the agent argument as one of their pids (see list_agents)")
        }
        return matches.first
    }

    /// The token to send to `endpoint`: the one given with `--token` or `JARVIS_TOKEN` only to
    /// the agent `--agent` named, for which it was given; any other agent gets the token its
    /// own owner-only discovery file holds, or none.
    private func token(for endpoint: Endpoint) -> String? {
        if let token, let chosen, (try? AgentLocator.endpoint(for: chosen)) == endpoint { return token }
        return AgentLocator.localToken(for: endpoint)
    }

    /// A connection of its own to `agent`, for watching, so that notifications never wait
    /// behind tool calls.
    func openConnection(to agent: MCPAgent) throws(JarvisError) -> JarvisClient {
        try JarvisClient(endpoint: agent.endpoint, clientName: clientName.current, token: token(for: agent.endpoint))
    }

    /// Closes an agent's connection after it failed, so the next call connects again.
    func forget(_ key: String) {
        connections.withLock { $0.removeValue(forKey: key) }?.client.close()
    }

    /// How resource URIs name an agent: its name, or its pid when several served agents
    /// share the name.
    static func label(of agent: MCPAgent, among agents: [MCPAgent]) -> String {
        let twins = agents.filter { $0.name == agent.name }.count
        return twins > 1 ? agent.pid.map(String.init) ?? agent.name : agent.name
    }

    private func connected(_ endpoint: Endpoint) throws(JarvisError) -> MCPAgent {
        if let known = connections.current[endpoint.description] { return known }
        return try connect(endpoint, record: Self.record(of: endpoint, in: (try? AgentDirectory.running()) ?? []))
    }

    private func connect(_ endpoint: Endpoint, record: AgentRecord?) throws(JarvisError) -> MCPAgent {
        let client = try JarvisClient(endpoint: endpoint, clientName: clientName.current, token: token(for: endpoint))
        let agent = MCPAgent(endpoint: endpoint, client: client, record: record)
        let kept = connections.withLock { state -> MCPAgent in
            if let earlier = state[agent.key] { return earlier }
            state[agent.key] = agent
            return agent
        }
        if kept.client !== client { client.close() }
        return kept
    }

    private static func record(of endpoint: Endpoint, in running: [AgentRecord]) -> AgentRecord? {
        running.first { $0.endpoint == endpoint || $0.tcp == endpoint.description }
    }
}
