import Foundation
import JarvisCore
import JarvisRemote

/// `watch` on several agents at once (`--agents`): each agent's changes as they happen, each
/// line starting with the agent. Subscribing is a fan-out like any other (bounded; one result
/// per agent, on standard error); an agent that stops later is said once, on standard error,
/// and the others go on.
enum FleetWatch {
    static func run(
        _ resolved: AgentSelection.Resolved, context: Context, since: Int64?,
        subscribe: @escaping @Sendable (Context, JarvisClient) throws -> JarvisClient.Subscription
    ) -> Never {
        let labels = FleetRun.labels(for: resolved.agents)
        var byAgent: [String: String] = [:]
        for (index, record) in resolved.agents.enumerated() { byAgent[key(record)] = labels[index] }
        let names = byAgent
        let json = context.json
        let report = FleetRun.run(resolved, bound: context.agentsBound, clientName: "jarvis-cli", keepingConnections: true) {
            (record, client) throws(JarvisError) -> FleetOutcome.Result in
            let subscription: JarvisClient.Subscription
            do {
                subscription = try subscribe(Context(client: client, json: json), client)
            } catch let error as JarvisError {
                throw error
            } catch {
                return FleetOutcome.Result(.failed, reason: String(describing: error))
            }
            let label = names[key(record)] ?? record.name
            Thread.detachNewThread { follow(client, label: label, json: json) }
            var text = "watching from sequence \(subscription.sequence)"
            if subscription.resumed == false, let since {
                text += "; the changes after \(since) are no longer kept"
            }
            return FleetOutcome.Result(.ok, value: text)
        }
        for line in report.table(width: min(Terminal.width ?? 80, 80), escape: Terminal.escaped) {
            Terminal.err(line)
        }
        guard report.outcomes.contains(where: { $0.status.succeeded }) else { exit(1) }
        Terminal.err(Terminal.dim("Ctrl-C to stop"))
        while true { sleep(3600) }
    }

    /// Prints one agent's changes until its connection ends, then says so once.
    private static func follow(_ client: JarvisClient, label: String, json: Bool) {
        do {
            while true {
                guard let notification = try client.nextChange(timeout: nil) else { continue }
                if json {
                    WatchCommand.printJSON(notification, agent: label)
                } else {
                    WatchCommand.printText(notification, agent: label)
                }
            }
        } catch {
            Terminal.err("jarvis watch: \(Terminal.escaped(label)) stopped: \(Terminal.escaped(error.message))")
        }
    }

    private static func key(_ record: AgentRecord) -> String { "\(record.pid) \(record.socket ?? record.tcp ?? "")" }
}
