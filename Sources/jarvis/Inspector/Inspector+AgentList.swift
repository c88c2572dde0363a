import JarvisInspector
import JarvisTransport

extension Inspector {
    /// A watch of the running agents while their list is on screen, and the pipe it wakes
    /// the main loop with.
    struct AgentListWatch {
        var watch: InspectorAgentWatch
        var wake: WakePipe
    }

    /// Watches the running agents while their list is the page on screen, and only then: an
    /// agent that starts or stops meanwhile appears or goes. The watch reads the discovery
    /// folder on its own thread, so a key press never waits for it.
    func watchAgentsWhileListed() {
        let listed = pages.last?.level == .agents
        if listed, agentListWatch == nil, let wake = try? WakePipe.make() {
            let watch = InspectorAgentWatch(agents: agents, token: token) { wake.signal() }
            agentListWatch = AgentListWatch(watch: watch, wake: wake)
        } else if !listed, let current = agentListWatch {
            current.watch.stop()
            current.wake.close()
            agentListWatch = nil
        }
    }

    /// Takes the list the watch read, keeping the cursor on the agent it was on.
    func takeWatchedAgents() {
        guard let current = agentListWatch, let index = pages.indices.last, pages[index].level == .agents else { return }
        current.wake.drain()
        let before = selectedAgent()
        agents = current.watch.agents
        if let before, let position = rows(for: pages[index], width: terminal.size.columns).firstIndex(where: {
            if case .agent(let agent) = $0.target { return agent.record.pid == before.record.pid }
            return false
        }) {
            pages[index].cursor = position
        }
    }

    private func selectedAgent() -> InspectorAgent? {
        guard let page = pages.last else { return nil }
        let rows = rows(for: page, width: terminal.size.columns)
        guard rows.indices.contains(page.cursor), case .agent(let agent) = rows[page.cursor].target else { return nil }
        return agent
    }
}
