import JarvisCore
import JarvisRemote

/// `jarvis agents`: the agents running for this user, including those embedded in apps of
/// booted iOS Simulator devices.
enum AgentsCommand: Command {
    static let name = "agents"
    static let summary = "list the running agents on this machine and in booted iOS Simulators"
    static let usage = """
        jarvis agents [--network] [--json]

          IDENTITY names an agent across restarts (PROGRAM/NAME@DEVICE: the app's
          bundle id or the program, the agent's name where it differs, the Simulator
          device); --agent and --agents take it, as they take a name, pid or bundle id.

          --network   agents advertised on the local network with Bonjour (an app on a
                      phone); macOS only
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
            // Each record as its file holds it, with the identity `--agents` also matches.
            let listed = records.map { record -> JSONValue in
                var object = record.json.objectValue ?? [:]
                object["identity"] = .string(record.identity)
                return .object(object)
            }
            Terminal.outBytes(JSONWriter.bytes(.array(listed)) + [0x0A])
            return
        }
        guard !records.isEmpty else {
            Terminal.out(
                "No agents are running. Start your app (one that embeds JarvisAgent), or try the demo with `jarvis demo`."
            )
            return
        }
        // On a terminal the address, last, gives way.
        let simulator = records.contains { $0.bundleID != nil }
        var rows = [["PID", "NAME", "IDENTITY", "STARTED"] + (simulator ? ["DEVICE", "APP"] : []) + ["ADDRESS"]]
        for record in records {
            rows.append(
                [String(record.pid), Terminal.escaped(record.name), Terminal.escaped(record.identity), Self.started(record.started)]
                    + (simulator ? [Terminal.escaped(record.device ?? "-"), Terminal.escaped(record.bundleID ?? "-")] : [])
                    + [Terminal.escaped(record.endpoint?.description ?? "-")])
        }
        Terminal.table(rows)
    }

    /// A record's start time to the second (records keep more), as people read it.
    static func started(_ text: String) -> String {
        guard let dot = text.firstIndex(of: "."), text.hasSuffix("Z") else { return text }
        return String(text[..<dot]) + "Z"
    }
}
