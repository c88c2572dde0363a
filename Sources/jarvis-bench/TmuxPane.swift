// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation

    /// A private tmux server (its own `-L` socket) running one command in a fixed-size pane:
    /// the real terminal a person types into, for the terminal inspector's benchmark.
    final class TmuxPane {
        private let socket = "jb-\(UUID().uuidString.prefix(8))"
        private let environment: [String: String]

        /// Whether tmux is on `PATH`.
        static var isAvailable: Bool { ChildProcess.which("tmux") != nil }

        /// Starts the server with a pane running `command` through `sh -c`.
        init(command: String, environment extra: [String: String], folder: URL, columns: Int = 80, rows: Int = 24)
            throws
        {
            var environment = ProcessInfo.processInfo.environment
            environment.removeValue(forKey: "TMUX")
            environment["TMUX_TMPDIR"] = folder.path
            environment["TERM"] = "xterm-256color"
            environment["NO_COLOR"] = "1"
            for (name, value) in extra { environment[name] = value }
            self.environment = environment
            let status = try run(
                ["new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "bench", command]
            ).status
            guard status == 0 else { throw BenchFailure("tmux new-session failed with status \(status)") }
        }

        deinit {
            if let pane = try? run(["list-panes", "-t", "bench", "-F", "#{pane_pid}"]).output,
                let pid = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
            {
                kill(-pid, SIGKILL)
            }
            _ = try? run(["kill-server"])
        }

        /// Sends keys by tmux name (`Enter`, `Down`).
        func keys(_ names: [String]) throws { _ = try run(["send-keys", "-t", "bench"] + names) }

        /// Types text literally.
        func type(_ text: String) throws { _ = try run(["send-keys", "-t", "bench", "-l", text]) }

        /// Waits until the screen shows `text`; throws with the screen after `seconds`.
        @discardableResult
        func wait(for text: String, seconds: Double = 120) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var last = ""
            while Date() < deadline {
                last = try run(["capture-pane", "-p", "-t", "bench"]).output
                if last.contains(text) { return last }
                Thread.sleep(forTimeInterval: 0.02)
            }
            throw BenchFailure("the inspector never showed '\(text)'; the screen was:\n\(last)")
        }

        private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            // The server tmux forks lives on: it must not hold this process's descriptors (a
            // child's pipe would never reach end of file), so bash closes them first.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                [
                    "bash", "-c",
                    #"for n in $(ls /dev/fd); do if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; exec tmux "$@""#,
                    "tmux", "-L", socket, "-f", "/dev/null",
                ] + arguments
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
#endif
