import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension Inspector {
    /// With `--agents`: the value of the key on screen on every agent named, read in the
    /// background (a fan-out, bounded) and drawn under the detail, one line per agent.
    final class FleetPeek: Sendable {
        let agents: AgentSelection.Resolved
        let bound: Duration
        /// Reports by place (`scanner container key pointer`); a place being read maps to nil.
        private let reports = Locked<[String: FleetReport?]>([:])

        init(agents: AgentSelection.Resolved, bound: Duration) {
            self.agents = agents
            self.bound = bound
        }

        /// The report for the place, or nil while it is read (the read starts on first ask;
        /// `wake` is signalled when it is in).
        func report(_ address: PreferenceAddress, _ pointer: JSONPointer, wake: @escaping @Sendable () -> Void)
            -> FleetReport?
        {
            let key = "\(address.scanner) \(address.container) \(address.key) \(pointer.description)"
            let start = reports.withLock { reports -> Bool in
                guard reports[key] == nil else { return false }
                reports[key] = .some(nil)
                return true
            }
            if start {
                let (agents, bound, reports) = (agents, bound, reports)
                Thread.detachNewThread {
                    let place = Wire.Place(
                        scanner: address.scanner, container: address.container, key: address.key,
                        pointer: pointer.isWhole ? nil : pointer)
                    let report = FleetRun.run(agents, bound: bound, clientName: "jarvis-inspect") {
                        _, client throws(JarvisError) in
                        FleetOutcome.Result(.ok, value: InspectorState.preview(try client.get(place), limit: 200))
                    }
                    reports.withLock { $0[key] = report }
                    wake()
                }
            }
            return reports.withLock { $0[key] ?? nil }
        }

        /// Forgets every report, so the next detail reads the agents again (Ctrl-L).
        func forget() {
            reports.withLock { $0 = [:] }
        }
    }

    /// The lines under a detail: a heading, then one line per agent named.
    func fleetLines(_ address: PreferenceAddress, _ pointer: JSONPointer, width: Int) -> [String] {
        guard let peek = fleetPeek, let wake = connection?.wake else { return [] }
        let heading = "On the \(peek.agents.agents.count + peek.agents.unmatched.count) agents named (--agents):"
        guard let report = peek.report(address, pointer, wake: { wake.signal() }) else {
            return ["", heading, "  reading…"]
        }
        return ["", heading] + report.valueLines(width: max(20, width - 4), escape: Terminal.escaped).map { "  " + $0 }
    }
}
