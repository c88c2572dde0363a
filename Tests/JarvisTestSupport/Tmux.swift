// tmux runs child processes: macOS and Linux only (iOS has no `Process`).
#if os(macOS) || os(Linux)
    import Foundation

    /// A private tmux server (its own `-L` socket) running one command in a fixed-size pane, so
    /// the end-to-end tests and `jarvis-bench` can type into a real terminal program and read the
    /// screen back.
    package final class Tmux {
        /// The name of the server's socket (`tmux -L`).
        package let socket = "jv-\(UUID().uuidString.prefix(8))"
        /// How long ``wait(for:seconds:)`` waits when not told (the benchmark waits longer).
        package let patience: Double
        private let environment: [String: String]

        /// Whether tmux is installed (`.ci/run` installs it).
        package static let isAvailable: Bool = {
            ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/tmux")
            }
        }()

        /// Starts the server with a session running `command` through `sh -c`.
        /// - Parameters:
        ///   - environment: the whole environment of the command (`TMUX` is removed, `TERM` set).
        ///   - folder: where the server's socket goes (removed with the caller's sandbox).
        ///   - patience: seconds ``wait(for:seconds:)`` waits by default.
        package init(
            command: String, environment: [String: String], folder: URL, columns: Int = 100, rows: Int = 30,
            patience: Double = 15
        ) throws {
            self.patience = patience
            var environment = environment
            environment.removeValue(forKey: "TMUX")
            environment["TMUX_TMPDIR"] = folder.path
            environment["TERM"] = "xterm-256color"
            self.environment = environment
            let started = try run(
                ["new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "test", command], capture: false)
            guard started.status == 0 else { throw TmuxError("tmux new-session failed with status \(started.status)") }
        }

        deinit {
            // The pane's shell leads its own process group: end it (and whatever still runs in
            // it), then the session and the server.
            if let pane = try? run(["list-panes", "-t", "test", "-F", "#{pane_pid}"]).output,
                let pid = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
            {
                kill(-pid, SIGKILL)
            }
            _ = try? run(["kill-session", "-t", "test"])
            _ = try? run(["kill-server"])
        }

        /// Sends keys by tmux name (`Enter`, `Escape`, `C-u`, `Down`).
        package func keys(_ names: String...) throws {
            try keys(names)
        }

        /// Sends keys by tmux name, as a list.
        package func keys(_ names: [String]) throws {
            _ = try run(["send-keys", "-t", "test"] + names)
        }

        /// Types text literally.
        package func type(_ text: String) throws {
            _ = try run(["send-keys", "-t", "test", "-l", text])
        }

        /// The pane's text now.
        package func screen() throws -> String {
            try run(["capture-pane", "-p", "-t", "test"]).output
        }

        /// Waits until `condition` holds for the screen, polling; throws with the last screen after `seconds`.
        @discardableResult
        package func wait(_ what: String, seconds: Double? = nil, until condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(seconds ?? patience)
            var last = ""
            while Date() < deadline {
                last = try screen()
                if condition(last) { return last }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw TmuxError("timed out waiting for \(what); the screen was:\n\(last)")
        }

        /// Waits until the screen shows `text`.
        @discardableResult
        package func wait(for text: String, seconds: Double? = nil) throws -> String {
            try wait("'\(text)'", seconds: seconds) { $0.contains(text) }
        }

        private func run(_ arguments: [String], capture: Bool = true) throws -> (status: Int32, output: String) {
            let process = Process()
            // The first command forks the tmux server, which lives on. It must not keep any
            // descriptor of this process open: Foundation learns that a child ended when a socket
            // the child inherited closes, and pipes give end of file only when every writer is
            // gone. So bash (dash cannot name descriptors above 9) closes everything above
            // standard error before running tmux.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                [
                    "bash", "-c",
                    #"for n in $(ls /dev/fd); do if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; exec tmux "$@""#,
                    "tmux", "-L", socket, "-f", "/dev/null",
                ] + arguments
            process.environment = environment
            let output = Pipe()
            process.standardOutput = capture ? output : FileHandle.nullDevice
            process.standardError = capture ? output : FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = capture ? output.fileHandleForReading.readDataToEndOfFile() : Data()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// What went wrong driving tmux, with the screen where there was one.
    package struct TmuxError: Error, CustomStringConvertible {
        /// The message.
        package let description: String

        init(_ description: String) { self.description = description }
    }
#endif
