// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote
    import JarvisScanners

    /// `jarvis-bench --defaults-host RUNTIME`: a host process that embeds the agent over its own
    /// `UserDefaults` and obeys lines on standard input: `set N` stores N in the watched suite,
    /// `put SUITE KEY TEXT` stores a string in any suite (`-`: the standard one), and
    /// `read SUITE KEY` prints `value TEXT` as the host's `UserDefaults` read it. The end-to-end
    /// tests drive it as a real program that embeds the agent (HostWritesEndToEndTests).
    ///
    /// The parent gives it a private HOME, so nothing is written into the user's preferences.
    struct DefaultsHost {
        let child: ChildProcess
        let socketPath: String
        private let home: URL

        /// Starts the host as a child of this process.
        static func launch() throws -> DefaultsHost {
            let home = try Fixture.temporaryFolder("home")
            let runtime = home.appendingPathComponent("rt")
            let child = try ChildProcess(
                try ChildProcess.sibling("jarvis-bench"), ["--defaults-host", runtime.path],
                environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path])
            let socket = try child.value(after: "socket ")
            return DefaultsHost(child: child, socketPath: socket, home: home)
        }

        func stop() {
            child.closeInput()
            child.process.waitUntilExit()
            try? FileManager.default.removeItem(at: home)
        }

        /// The child's side: serve, then obey the lines until standard input closes.
        static func serve(runtime: String) -> Int32 {
            guard let defaults = UserDefaults(suiteName: WatchBench.userDefaultsSuite) else { return 1 }
            defaults.set(-1, forKey: WatchBench.key)
            let agent: JarvisAgent
            do {
                agent = try JarvisAgent.start(
                    scanners: [DefaultsScanner.defaults(suites: [WatchBench.userDefaultsSuite])],
                    options: .init(name: "jarvis-bench-host", runtimeDirectory: URL(fileURLWithPath: runtime)))
            } catch {
                FileHandle.standardError.write(Data("jarvis-bench: \(error.message)\n".utf8))
                return 1
            }
            FileHandle.standardOutput.write(Data("socket \(agent.socketPath)\n".utf8))
            while let line = Swift.readLine() {
                if line.hasPrefix("set "), let value = Int(line.dropFirst(4)) {
                    defaults.set(value, forKey: WatchBench.key)
                }
                let words = line.split(separator: " ", maxSplits: 3).map(String.init)
                if words.count == 4, words[0] == "put" {
                    let suite = words[1] == "-" ? UserDefaults.standard : UserDefaults(suiteName: words[1])
                    suite?.set(words[3], forKey: words[2])
                }
                if words.count == 3, words[0] == "read" {
                    let suite = words[1] == "-" ? UserDefaults.standard : UserDefaults(suiteName: words[1])
                    let text = suite?.object(forKey: words[2]).map { "\($0)" } ?? "(none)"
                    FileHandle.standardOutput.write(Data("value \(text)\n".utf8))
                }
            }
            agent.stop()
            return 0
        }
    }
#endif
