import Foundation
import JarvisCore
import JarvisRemote

/// `resources/subscribe` backed by the agent's `watch`: one watching connection per agent,
/// one agent subscription per resource, and `notifications/resources/updated` for each
/// `changed` notification.
///
/// A watching connection that drops (the agent stopped or restarted) leaves its resources
/// subscribed but unwatched; ``reconcile()``, run on every monitor tick, watches them again
/// once the agent answers and tells the client to read them again, since they may have
/// changed meanwhile.
final class MCPSubscriptions: Sendable {
    private let output: MCPOutput
    private let bridge: MCPAgentBridge
    private let state = Locked(State())
    /// Tells the client a resource changed: plainly for the 2025 revisions, on each listen
    /// stream that asked for it from 2026-07-28 (set by the server).
    let updated = Locked<(@Sendable (MCPResourceURI) -> Void)?>(nil)

    private struct State {
        /// Subscribed resources, with the agent subscription that serves each (nil while unwatched).
        var resources: [MCPResourceURI: Watch] = [:]
        /// Watching connections by agent key.
        var watchers: [String: JarvisClient] = [:]
    }

    private struct Watch {
        var agentKey: String?
        var subscription: String?
    }

    init(output: MCPOutput, bridge: MCPAgentBridge) {
        self.output = output
        self.bridge = bridge
    }

    /// Starts watching a resource the client subscribed to.
    func subscribe(_ uri: MCPResourceURI, agent: MCPAgent) throws(JarvisError) {
        if state.current.resources[uri]?.subscription != nil { return }
        state.withLock { $0.resources[uri] = $0.resources[uri] ?? Watch() }
        try watch(uri, agent: agent)
    }

    /// Stops watching a resource; unknown ones are ignored.
    func unsubscribe(_ uri: MCPResourceURI) {
        let (removed, client, idle) = state.withLock { state -> (Watch?, JarvisClient?, Bool) in
            guard let removed = state.resources.removeValue(forKey: uri) else { return (nil, nil, false) }
            let key = removed.agentKey
            let client = key.flatMap { state.watchers[$0] }
            let idle = !state.resources.values.contains { $0.agentKey == key && $0.subscription != nil }
            if idle, let key { state.watchers.removeValue(forKey: key) }
            return (removed, client, idle)
        }
        guard let client else { return }
        if idle {
            client.close()
        } else if let subscription = removed?.subscription {
            try? client.unwatch(subscription)
        }
    }

    /// Watches again the resources whose watching connection dropped.
    func reconcile() {
        let unwatched = state.current.resources.filter { $0.value.subscription == nil }.map(\.key)
        for uri in unwatched {
            guard let agent = try? bridge.agent(for: uri.agent), (try? watch(uri, agent: agent)) != nil else {
                continue
            }
            tell(uri)
        }
    }

    private func tell(_ uri: MCPResourceURI) {
        if let route = updated.current {
            route(uri)
        } else {
            output.notify("notifications/resources/updated", ["uri": .string(uri.description)])
        }
    }

    private func watch(_ uri: MCPResourceURI, agent: MCPAgent) throws(JarvisError) {
        let client = try watcher(for: agent)
        let subscription = try client.watch(scanner: uri.scanner, container: uri.containerGlob)
        state.withLock { state in
            if state.resources[uri] != nil {
                state.resources[uri] = Watch(agentKey: agent.key, subscription: subscription.id)
            }
        }
    }

    private func watcher(for agent: MCPAgent) throws(JarvisError) -> JarvisClient {
        if let client = state.current.watchers[agent.key] { return client }
        let client = try bridge.openConnection(to: agent)
        let kept = state.withLock { state -> JarvisClient in
            if let earlier = state.watchers[agent.key] { return earlier }
            state.watchers[agent.key] = client
            return client
        }
        if kept !== client {
            client.close()
            return kept
        }
        let key = agent.key
        Thread.detachNewThread { [self] in self.read(client, agentKey: key) }
        return client
    }

    /// The watching connection's reader: forwards changes until the connection closes.
    private func read(_ client: JarvisClient, agentKey: String) {
        while true {
            let change: ChangeNotification?
            do {
                change = try client.nextChange(timeout: .milliseconds(200))
            } catch {
                state.withLock { state in
                    guard state.watchers[agentKey] === client else { return }
                    state.watchers.removeValue(forKey: agentKey)
                    for (uri, watch) in state.resources where watch.agentKey == agentKey {
                        state.resources[uri] = Watch(agentKey: nil, subscription: nil)
                    }
                }
                return
            }
            guard let change else {
                if state.current.watchers[agentKey] !== client { return }
                continue
            }
            let uri = state.current.resources.first {
                $0.value.agentKey == agentKey && $0.value.subscription == change.subscription
            }?.key
            if let uri { tell(uri) }
        }
    }
}
