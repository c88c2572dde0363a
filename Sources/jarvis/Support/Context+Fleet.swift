import Foundation
import JarvisCore
import JarvisRemote

extension Context {
    /// Reads `--agents` (else `JARVIS_AGENTS`) and `--agents-timeout`. `--agent` beside
    /// `--agents` is a mistake; `--agent` typed with `JARVIS_AGENTS` set means one agent.
    static func fanOut(_ arguments: inout Arguments, single: String?) throws -> (AgentSelection?, Bool, Duration) {
        let typed = arguments.option("--agents")
        let timeoutText = arguments.option("--agents-timeout")
        var bound = FleetRun.defaultBound
        if let timeoutText {
            guard let seconds = Double(timeoutText), seconds > 0, seconds <= 3600 else {
                throw UsageError("--agents-timeout needs a number of seconds above 0 (5 unless given)")
            }
            bound = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if typed != nil, single != nil {
            throw UsageError("--agent names one agent and --agents several; give one of them")
        }
        let environment = ProcessInfo.processInfo.environment["JARVIS_AGENTS"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = typed ?? (single == nil ? environment : nil) else { return (nil, false, bound) }
        do {
            return (try AgentSelection(parsing: text), typed != nil, bound)
        } catch {
            throw UsageError(error.message)
        }
    }

    /// The running agents `--agents` names; nil when the command acts on one agent.
    func fleet() throws(JarvisError) -> AgentSelection.Resolved? {
        guard let agents else { return nil }
        return agents.resolve(among: try AgentDirectory.running())
    }
}
