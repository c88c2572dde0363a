import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

/// How the CLI shows a fan-out (`--agents`): the report's table or JSON, and its exit status.
/// The decisions (which agents, what each outcome is, the status) are the report's.
enum FleetOutput {
    /// Prints the report and ends the program with its exit status.
    static func finish(_ report: FleetReport, context: Context) -> Never {
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(report.json) + [0x0A])
        } else {
            for (number, line) in report.table(width: min(Terminal.width ?? 80, 80), escape: Terminal.escaped).enumerated() {
                Terminal.out(number == 0 ? Terminal.bold(line) : line)
            }
            Terminal.err(report.summary)
        }
        exit(report.exitStatus)
    }

    /// Runs `body` on every agent named, each with a context over its own connection, and
    /// ends the program with the report.
    static func run(
        _ resolved: AgentSelection.Resolved, context: Context, writes: Bool = false,
        _ body: @escaping @Sendable (Context, JarvisClient) throws -> FleetOutcome.Result
    ) -> Never {
        let json = context.json
        let report = FleetRun.run(resolved, bound: context.agentsBound, clientName: "jarvis-cli", writes: writes) {
            (_, client) throws(JarvisError) -> FleetOutcome.Result in
            do {
                return try body(Context(client: client, json: json), client)
            } catch let error as JarvisError {
                throw error
            } catch let error as UsageError {
                return FleetOutcome.Result(.failed, reason: error.message)
            } catch {
                return FleetOutcome.Result(.failed, reason: String(describing: error))
            }
        }
        finish(report, context: context)
    }

    /// Refuses a write on an agent that does not allow editing, naming why.
    static func requireEditing(_ client: JarvisClient) -> FleetOutcome.Result? {
        FleetOutcome.Result.editingRefusal(client.helloResult.capabilities)
    }

    /// `old → new` for a table cell.
    static func change(_ old: PreferenceItem?, _ new: String) -> String {
        (old.map { InspectorState.preview($0, limit: 60) } ?? "(absent)") + " → " + new
    }
}
