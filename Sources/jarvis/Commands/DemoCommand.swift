import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis demo`: starts the standalone agent on sample data and shows what it serves.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "start a demo agent on sample data and open the inspector on it"
    static let usage = """
        jarvis demo [--stop]

          Starts `jarvis-agent --demo` (sample suites in a fresh temporary folder) and opens
          `jarvis inspect` on it; quitting the inspector stops the demo agent it started.
          When standard output is not a terminal, it leaves the agent running in the
          background, lists what it serves and prints commands to try. --stop ends demo agents.
        """

    static let agentName = "jarvis-demo"

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let stop = arguments.flag("--stop")
        try arguments.finish(maxPositionals: 0, command: name)
        if stop {
            let demos = AgentDirectory.running().filter { $0.name == agentName }
            for record in demos { kill(record.pid, SIGTERM) }
            Terminal.out(demos.isEmpty ? "No demo agent is running." : "Stopped \(demos.count) demo agent(s).")
            return
        }
        if Terminal.isInteractive && isatty(STDIN_FILENO) == 1 {
            try inspect()
            return
        }
        let record = try existingDemo() ?? (try launch().record)
        Terminal.out(Terminal.bold("Demo agent \(record.name) runs as pid \(record.pid).") + "\n")
        var listing = Arguments.empty
        let demoContext = Context(agent: String(record.pid))
        try ListCommand.run(&listing, context: demoContext)
        Terminal.out(
            """

            Try next:
              jarvis get com.example.demo.prefs user_name
              jarvis set com.example.demo.prefs launch_count 5 --int
              jarvis rm  com.example.demo.prefs user_name
              jarvis ls --json
            (add --agent \(record.pid) when other agents run too)
            Stop the demo with `jarvis demo --stop`.
            """)
    }

    /// Opens the inspector on the demo; stops the agent afterwards if this run started it.
    private static func inspect() throws {
        if let running = try existingDemo() {
            try Inspector.run(selector: String(running.pid))
            return
        }
        let (record, process) = try launch()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        try Inspector.run(selector: String(record.pid), childToStop: record.pid)
    }

    private static func existingDemo() throws -> AgentRecord? {
        AgentDirectory.running().first { $0.name == agentName }
    }

    private static func launch() throws -> (record: AgentRecord, process: Process) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let agent = executable.deletingLastPathComponent().appendingPathComponent("jarvis-agent")
        guard FileManager.default.isExecutableFile(atPath: agent.path) else {
            throw JarvisError(.unavailable, "jarvis-agent is not next to jarvis; build it with `swift build`")
        }
        let process = Process()
        process.executableURL = agent
        process.arguments = ["--demo", "--name", agentName]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let record = AgentDirectory.running().first(where: { $0.pid == pid }) { return (record, process) }
            guard process.isRunning else {
                throw JarvisError(.unavailable, "the demo agent exited at start (status \(process.terminationStatus)); run `jarvis-agent --demo` to see why")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw JarvisError(.unavailable, "the demo agent did not start within 15 seconds")
    }
}
