import JarvisCore
import JarvisRemote

/// `jarvis agents`: the agents running for this user.
enum AgentsCommand: Command {
    static let name = "agents"
    static let summary = "list the running agents on this machine"
    static let usage = "jarvis agents [--json]"

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try arguments.finish(maxPositionals: 0, command: name)
        let records = AgentDirectory.running()
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(.array(records.map(\.json))) + [0x0A])
            return
        }
        guard !records.isEmpty else {
            Terminal.out(
                "No agents are running. Start one with `jarvis-agent --demo`, or run a program that embeds JarvisAgent."
            )
            return
        }
        Terminal.out(
            Terminal.bold(Terminal.pad("PID", 8) + Terminal.pad("NAME", 24) + Terminal.pad("STARTED", 26) + "SOCKET"))
        for record in records {
            Terminal.out(
                Terminal.pad(String(record.pid), 8) + Terminal.pad(Terminal.escaped(record.name), 24)
                    + Terminal.pad(Terminal.escaped(record.started), 26) + Terminal.escaped(record.socket))
        }
    }
}
