import Dispatch
import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis demo`: starts the standalone agent on sample data and shows what it serves.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "start a demo agent on sample data and open the inspector on it"
    static let usage = """
        jarvis demo [--stop]

          Starts a demo agent (sample data in a fresh temporary folder) and opens
          `jarvis inspect` on it; quitting the inspector stops the demo agent it
          started. When standard output is not a terminal, it leaves the agent running
          in the background, lists what it serves and prints commands to try
          (`jarvis web` opens it in your browser). --stop ends demo agents.
        """

    static let agentName = "jarvis-demo"

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let stop = arguments.flag("--stop")
        try arguments.finish(maxPositionals: 0, command: name)
        if stop {
            let demos = try AgentDirectory.running().filter { $0.name == agentName }
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
        let demoContext = try Context(agent: String(record.pid))
        try ListCommand.run(&listing, context: demoContext)
        Terminal.out(
            """

            Try next:
              jarvis web      (the inspector in your browser, live)
              jarvis get com.example.demo.prefs user_name
              jarvis set com.example.demo.prefs launch_count 5 --int
              jarvis rm  com.example.demo.prefs user_name
              jarvis ls --json
            (add --agent \(record.pid) when other agents run too)
            Stop the demo with `jarvis demo --stop`.
            """)
        if let executable = Bundle.main.executableURL,
            !CommandOnPath.finds(
                "jarvis", executable: executable, path: ProcessInfo.processInfo.environment["PATH"] ?? "")
        {
            let folder = executable.deletingLastPathComponent().path
            Terminal.out(
                Terminal.dim("(jarvis is not on your PATH: use `swift run jarvis …`, or add \(folder) to PATH)"))
        }
    }

    /// Opens the inspector on the demo; stops the agent afterwards if this run started it.
    private static func inspect() throws {
        if let running = try existingDemo() {
            try Inspector.run(selector: String(running.pid))
            return
        }
        let (record, stop) = try launch()
        defer { stop() }
        try Inspector.run(selector: String(record.pid), childToStop: record.pid)
    }

    private static func existingDemo() throws -> AgentRecord? {
        try AgentDirectory.running().first { $0.name == agentName }
    }

    /// The word of the hidden command that `jarvis demo` starts in the background.
    static let serveWord = "demo-agent"

    /// Starts this same executable as the demo agent, so `swift run jarvis demo` needs no
    /// other binary, and waits until it has published its discovery file.
    #if os(macOS) || os(Linux)
        private static func launch() throws -> (record: AgentRecord, stop: () -> Void) {
            let process = Process()
            process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [serveWord]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                if let record = try AgentDirectory.running().first(where: { $0.pid == pid }) {
                    return (record, { stop(process) })
                }
                guard process.isRunning else {
                    throw JarvisError(
                        .unavailable,
                        "the demo agent exited at start (status \(process.terminationStatus)); run `jarvis demo-agent` in a terminal to see why"
                    )
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw JarvisError(.unavailable, "the demo agent did not start within 15 seconds")
        }

        private static func stop(_ process: Process) {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }
    #else
        /// iOS, tvOS, watchOS and visionOS start no child processes.
        private static func launch() throws -> (record: AgentRecord, stop: () -> Void) {
            throw JarvisError(
                .unavailable, "jarvis demo starts a demo agent process, which this platform does not allow")
        }
    #endif

    /// Serves the demo data until SIGTERM or SIGINT: the body of the background demo process.
    /// Becomes the demo agent: `jarvis-agent --demo` from beside this binary, in this process
    /// (exec), so the CLI itself links no scanner and the demo's data never ships in an app.
    /// The demo's secrets are sample data: `r` in the inspector (and `--reveal`) shows them, so
    /// every feature can be tried; a real host decides this in its own configuration.
    static func serve() throws -> Never {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let agent = executable.deletingLastPathComponent().appendingPathComponent("jarvis-agent").path
        guard access(agent, X_OK) == 0 else {
            throw JarvisError(
                .unavailable,
                "the demo runs jarvis-agent, which is not beside jarvis (\(agent)); build both with `swift build`, or copy jarvis-agent next to jarvis"
            )
        }
        let arguments = [agent, "--demo", "--allow-reveal", "--name", agentName]
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(agent, &pointers)
        throw JarvisError(.unavailable, "cannot run \(agent): \(String(cString: strerror(errno)))")
    }
}
