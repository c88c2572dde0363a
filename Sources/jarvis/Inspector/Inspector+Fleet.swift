import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension Inspector {
    /// With `--agents`: the value of the key on screen on every agent named, read in the
    /// background (a fan-out, bounded) and drawn under the detail, one line per agent, compared
    /// by the model's rule (``InspectorKeyComparison``).
    final class FleetPeek: Sendable {
        let agents: AgentSelection.Resolved
        let bound: Duration
        /// Comparisons by place and agent in view (`scanner container key pointer pid`),
        /// filled in as each agent answers.
        private let comparisons = Locked<[String: InspectorKeyComparison]>([:])

        init(agents: AgentSelection.Resolved, bound: Duration) {
            self.agents = agents
            self.bound = bound
        }

        /// The place compared on every agent named, `own` (the agent in view, when named)
        /// first and the reference of what differs (``InspectorKeyComparison``). The read
        /// starts on first ask, in the background; `wake` is signalled as each agent answers.
        func comparison(
            _ address: PreferenceAddress, _ pointer: JSONPointer, own: AgentRecord?,
            wake: @escaping @Sendable () -> Void
        ) -> InspectorKeyComparison {
            let key =
                "\(address.scanner) \(address.container) \(address.key) \(pointer.description) \(own?.pid ?? 0)"
            let (comparison, start) = comparisons.withLock { comparisons -> (InspectorKeyComparison, Bool) in
                if let known = comparisons[key] { return (known, false) }
                let fresh = InspectorKeyComparison(address: address, pointer: pointer, agents: agents.agents, own: own)
                comparisons[key] = fresh
                return (fresh, true)
            }
            if start {
                let (bound, comparisons) = (bound, comparisons)
                Thread.detachNewThread {
                    let answers = comparison.read(bound: bound, clientName: "jarvis-inspect") { agent, outcome, seen in
                        comparisons.withLock { $0[key]?.record(agent, outcome, seen: seen) }
                        wake()
                    }
                    // Agents cut off at the bound have their line now.
                    comparisons.withLock { comparisons in
                        for (agent, outcome, seen) in answers { comparisons[key]?.record(agent, outcome, seen: seen) }
                    }
                    wake()
                }
            }
            return comparison
        }

        /// Forgets every comparison, so the next detail reads the agents again (Ctrl-L).
        func forget() {
            comparisons.withLock { $0 = [:] }
        }
    }

    /// The lines under a detail: a heading, then one line per agent named, the agent browsed
    /// first, `≠` where the value differs from its value.
    func fleetLines(_ address: PreferenceAddress, _ pointer: JSONPointer, width: Int) -> [String] {
        guard let peek = fleetPeek, let wake = connection?.wake else { return [] }
        let heading = "On the \(peek.agents.agents.count + peek.agents.unmatched.count) agents named (--agents):"
        let own = connection.flatMap { connection in
            peek.agents.agents.first { String($0.pid) == connection.pid }
        }
        let comparison = peek.comparison(address, pointer, own: own, wake: { wake.signal() })
        return ["", heading]
            + comparison.textLines(
                width: max(20, width - 4), unmatched: peek.agents.unmatched, escape: Terminal.escaped
            ).map { "  " + $0 }
    }
}
