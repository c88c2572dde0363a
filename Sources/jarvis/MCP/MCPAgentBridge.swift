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

    /// The agent a tool call is for: its `agent` argument (a name or pid among the served
    /// agents, or anything `--agent` takes), else the chosen one, else the only one running.
    /// - Throws: ``JarvisError`` `.notFound` listing the running agents when none or several fit.
    func agent(for argument: String?) throws(JarvisError) -> MCPAgent {
        guard let wanted = argument ?? chosen else {
            return try connected(try AgentLocator.endpoint(for: nil))
        }
        let known = Array(connections.current.values)
        let byName = known.filter { $0.name == wanted }
        if byName.count == 1 { return byName[0] }
        if let byPID = known.first(where: { $0.pid.map(String.init) == wanted }) { return byPID }
        return try connected(try AgentLocator.endpoint(for: wanted))
    }

    /// A connection of its own to `agent`, for watching, so that notifications never wait
    /// behind tool calls.
    func openConnection(to agent: MCPAgent) throws(JarvisError) -> JarvisClient {
        try JarvisClient(
            endpoint: agent.endpoint, clientName: clientName.current,
            token: token ?? AgentLocator.localToken(for: agent.endpoint))
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
        let client = try JarvisClient(
            endpoint: endpoint, clientName: clientName.current,
            token: token ?? AgentLocator.localToken(for: endpoint))
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
