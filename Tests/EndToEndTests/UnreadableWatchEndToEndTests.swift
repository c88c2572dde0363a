import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// Issue 28 item 5, with the real `jarvis-agent` and `jarvis watch`: a served JSON file that
/// turns invalid while being written shows as unreadable, and as readable again once fixed,
/// with only the keys that really changed and no key reported removed.
@Suite struct UnreadableWatchEndToEndTests {
    /// A running `jarvis watch`, its output collected line by line.
    final class Watcher {
        let process = Process()
        let output = Locked("")
        let errors = Locked("")

        init(_ sandbox: Sandbox, _ arguments: [String], as user: [String] = []) throws {
            let jarvis = try Binaries.url("jarvis")
            process.executableURL = user.isEmpty ? jarvis : URL(fileURLWithPath: user[0])
            process.arguments = user.dropFirst() + (user.isEmpty ? [] : [jarvis.path]) + ["watch"] + arguments
            process.environment = sandbox.environment
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            for (pipe, text) in [(out, output), (err, errors)] {
                Thread {
                    while true {
                        let data = pipe.fileHandleForReading.availableData
                        if data.isEmpty { return }
                        text.withLock { $0 += String(decoding: data, as: UTF8.self) }
                    }
                }.start()
            }
        }

        var lines: [String] { output.current.split(separator: "\n").map(String.init) }

        /// Waits until a line holds `text`; returns it.
        func line(containing text: String, timeout: TimeInterval = 20) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let line = lines.first(where: { $0.contains(text) }) { return line }
                usleep(10_000)
            }
            return lines.first { $0.contains(text) }
        }

        /// Waits until standard error holds `text`.
        func said(_ text: String, timeout: TimeInterval = 20) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline, !errors.current.contains(text) { usleep(10_000) }
            return errors.current.contains(text)
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func aFileWrittenInvalidInPlaceIsUnreadableThenReadableAgain() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("app.json")
        try Data(#"{"port": 8080, "debug": true, "name": "demo"}"#.utf8).write(to: file)
        _ = try AgentProcess(sandbox, ["--files", folder.path])

        let text = try Watcher(sandbox, ["files:app.json"])
        let json = try Watcher(sandbox, ["files:app.json", "--json"])
        #expect(text.said("watching from sequence"), "\(text.errors.current)")
        // `--json` says nothing when it is ready: change a key until it prints the change.
        var ready = false
        for round in 0..<40 where !ready {
            #expect(try sandbox.jarvis("set", "files:app.json", "name", "demo\(round)").status == 0)
            ready = json.line(containing: #""key":"name""#, timeout: 0.5) != nil
        }
        #expect(ready, "jarvis watch --json printed nothing: \(json.errors.current)")
        // The file as the agent left it, then broken by one missing comma, written in place
        // as a program saving its settings does: truncated, then the bytes.
        let good = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(good.hasPrefix(#"{"port": 8080, "debug""#), "\(good)")
        try Data(good.replacingOccurrences(of: #""port": 8080,"#, with: #""port": 8081"#).utf8).write(to: file)
        // (A reader may also catch the file empty, between the truncation and the write.)
        let broken = try #require(text.line(containing: "line 1, column 15"), "\(text.lines)")
        #expect(broken.contains("  unreadable files:app.json  not valid JSON: line 1, column 15: "), "\(broken)")
        let brokenJSON = try #require(json.line(containing: "line 1, column 15"), "\(json.lines)")
        #expect(
            brokenJSON.contains(
                #""kind":"unreadable","scanner":"files","container":"app.json","problem":"not valid JSON: line 1, column 15: "#
            ), "\(brokenJSON)")

        try Data(good.replacingOccurrences(of: #""port": 8080,"#, with: #""port": 8081,"#).utf8).write(to: file)
        let fixed = try #require(text.line(containing: "  readable files:app.json"), "\(text.lines)")
        #expect(fixed.contains("again, 1 key changed"), "\(fixed)")
        let port = try #require(text.line(containing: "files:app.json port"), "\(text.lines)")
        #expect(port.contains("8080 → 8081"), "\(port)")
        #expect(json.line(containing: #""kind":"readable""#) != nil, "\(json.lines)")
        #expect(json.line(containing: #""key":"port""#)?.contains(#""kind":"updated""#) == true, "\(json.lines)")
        // Nothing was ever reported removed: the keys were kept while the file was broken.
        #expect(!text.lines.contains { $0.contains("removed") }, "\(text.lines)")
        #expect(!json.lines.contains { $0.contains(#""kind":"removed""#) }, "\(json.lines)")
    }

    /// Root reads every file whatever its mode: as root, the agent and `jarvis watch` run as
    /// `nobody` (util-linux's setpriv), so taking the read permission away means something.
    static let unprivileged: [String]? = {
        guard getuid() == 0 else { return [] }
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else { return nil }
        return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    }()

    @Test(
        .enabled(
            if: unprivileged != nil,
            "root reads every file whatever its mode; install util-linux's setpriv to run this as nobody"))
    func aFileThatLosesItsReadPermissionIsUnreadableUntilItGetsItBack() throws {
        let user = try #require(Self.unprivileged)
        let sandbox = try Sandbox()
        let home = sandbox.root.appendingPathComponent("home")
        let folder = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("app.json")
        try Data(#"{"port": 8080, "debug": true}"#.utf8).write(to: file)
        if !user.isEmpty {
            let chown = try Process.run(
                URL(fileURLWithPath: "/bin/chown"), arguments: ["-R", "65534:65534", sandbox.root.path])
            chown.waitUntilExit()
            try #require(chown.terminationStatus == 0)
            sandbox.environmentOverrides["XDG_CONFIG_HOME"] = home.path
            sandbox.environmentOverrides["HOME"] = home.path
        }
        let agent = Process()
        let binary = try Binaries.url("jarvis-agent")
        agent.executableURL = user.isEmpty ? binary : URL(fileURLWithPath: user[0])
        agent.arguments = user.dropFirst() + (user.isEmpty ? [] : [binary.path]) + ["--files", folder.path]
        agent.environment = sandbox.environment
        agent.standardOutput = FileHandle.nullDevice
        // What the agent said, for the message when it does not start.
        let log = sandbox.root.appendingPathComponent("agent.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        agent.standardError = try FileHandle(forWritingTo: log)
        try agent.run()
        defer {
            agent.terminate()
            agent.waitUntilExit()
        }
        let record = sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).json")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: record.path), agent.isRunning, Date() < deadline {
            usleep(10_000)
        }
        try #require(
            FileManager.default.fileExists(atPath: record.path),
            """
            the agent did not start within 20 s (\(agent.isRunning ? "still running" : "exited with \(agent.terminationStatus)"), \
            run as \(user.isEmpty ? "this user" : user.joined(separator: " "))): \
            \((try? String(contentsOf: log, encoding: .utf8)) ?? "")
            """)

        let watch = try Watcher(sandbox, ["files:app.json"], as: user)
        #expect(watch.said("watching from sequence"), "\(watch.errors.current)")
        #expect(chmod(file.path, 0) == 0)
        let broken = try #require(watch.line(containing: "unreadable files:app.json"), "\(watch.lines)")
        #expect(broken.contains("Permission denied"), "\(broken)")
        // A read that failed changed nothing by its nature: the problem does not say a write stopped.
        #expect(!broken.contains("nothing was changed"), "\(broken)")
        #expect(chmod(file.path, 0o644) == 0)
        let fixed = try #require(watch.line(containing: "  readable files:app.json"), "\(watch.lines)")
        #expect(fixed.contains("again, no key changed"), "\(fixed)")
        #expect(!watch.lines.contains { $0.contains("removed") }, "\(watch.lines)")
    }
}
