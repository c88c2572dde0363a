// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote

    /// The real `jarvis-agent` binary, run as a child serving one folder of defaults suites,
    /// with a private runtime folder so that it never meets another agent.
    final class AgentChild {
        let child: ChildProcess
        let socketPath: String
        let runtime: URL

        /// - Parameters:
        ///   - extra: more arguments for the agent (another scanner's folder).
        ///   - environment: more variables for the agent (a D-Bus bus).
        init(serving folder: URL, extra: [String] = [], environment: [String: String] = [:]) throws {
            runtime = try Fixture.temporaryFolder("rt")
            child = try ChildProcess(
                try ChildProcess.sibling("jarvis-agent"),
                ["--defaults-dir", folder.path, "--name", "jarvis-bench-agent"] + extra,
                environment: environment.merging(["JARVIS_RUNTIME_DIR": runtime.path]) { $1 })
            let line = try child.value(after: "jarvis-agent ")
            guard let range = line.range(of: " serving on ") else {
                child.stop()
                throw BenchFailure("jarvis-agent did not say where it serves: \(line)")
            }
            socketPath = String(line[range.upperBound...])
        }

        var pid: Int32 { child.pid }
        var endpoint: Endpoint { .unix(path: socketPath) }

        /// A new connection that has said hello.
        func connect(name: String = "jarvis-bench") throws -> JarvisClient {
            try JarvisClient(endpoint: endpoint, clientName: name, timeout: .seconds(60))
        }

        func stop() {
            child.stop()
            try? FileManager.default.removeItem(at: runtime)
        }
    }
#endif
