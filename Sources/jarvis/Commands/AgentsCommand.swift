import JarvisCore
import JarvisRemote

/// `jarvis agents`: the agents running for this user, including those embedded in apps of
/// booted iOS Simulator devices.
enum AgentsCommand: Command {
    static let name = "agents"
    static let summary = "list the running agents on this machine and in booted iOS Simulators"
    static let usage = """
        jarvis agents [--network] [--json]

          --network   agents advertised on the local network with Bonjour (an app on a phone); macOS only
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        if arguments.flag("--network") {
            try arguments.finish(maxPositionals: 0, command: name)
            try listNetworkAgents(context: context)
            return
        }
        try arguments.finish(maxPositionals: 0, command: name)
        let records = try AgentDirectory.running()
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
        let simulator = records.contains { $0.bundleID != nil }
        Terminal.out(
            Terminal.bold(
                Terminal.pad("PID", 8) + Terminal.pad("NAME", 24) + Terminal.pad("STARTED", 26)
                    + (simulator ? Terminal.pad("DEVICE", 20) + Terminal.pad("APP", 32) : "") + "ADDRESS"))
        for record in records {
            let place =
                simulator ? Terminal.pad(record.device ?? "-", 20) + Terminal.pad(record.bundleID ?? "-", 32) : ""
            Terminal.out(
                Terminal.pad(String(record.pid), 8) + Terminal.pad(record.name, 24) + Terminal.pad(record.started, 26)
                    + place + (record.endpoint?.description ?? "-"))
        }
    }
}
