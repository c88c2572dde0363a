import Foundation
import JarvisCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 item 8 against the real agent: a client learns nothing about hidden names from
/// counts, and the agent never touches a hidden name's file, so an existing one and a missing
/// one cannot differ in time either.
@Suite(.serialized) struct HiddenNameProbingEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Ada"])
        try sandbox.writeSuite("com.apple.finder", in: folder, ["ShowPathbar": true])
        try sandbox.writeSuite("com.apple.dock", in: folder, ["autohide": true])
    }

    @Test func aNarrowedPatternGetsTheSameHiddenCountAsAnyOther() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        func hidden(_ arguments: String...) throws -> JSONValue? {
            let result = try sandbox.run(try Binaries.url("jarvis"), ["ls"] + arguments + ["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONParser.parse(result.stdout)["hiddenSystemContainers"]
        }
        let all = try hidden()
        #expect(all?.int64Value == 2)
        for pattern in ["com.apple.f*", "com.apple.e*", "com.apple.d*", "com.apple.x*", "com.example.app"] {
            #expect(try hidden(pattern) == all, "\(pattern)")
        }
    }

    static let canTrace = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") && getuid() == 0

    @Test(.enabled(if: canTrace || ProcessInfo.processInfo.environment["CI"] != nil, "install strace (and run as root)"))
    func theAgentNeverTouchesAHiddenNamesFile() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let log = sandbox.root.appendingPathComponent("trace")
        let messages = sandbox.root.appendingPathComponent("strace.err")
        _ = FileManager.default.createFile(atPath: messages.path, contents: nil)
        let strace = Process()
        strace.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        strace.arguments = ["-f", "-e", "trace=%file", "-o", log.path, "-p", String(agent.pid)]
        strace.standardError = try FileHandle(forWritingTo: messages)
        try strace.run()
        defer {
            if strace.isRunning { kill(strace.processIdentifier, SIGKILL) }
            strace.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(30)
        while !((try? String(contentsOf: messages, encoding: .utf8)) ?? "").contains("attached"), Date() < deadline {
            usleep(20_000)
        }
        for suite in ["com.apple.finder", "com.apple.nothing"] {
            for command in [
                ["get", suite, "ShowPathbar"], ["set", suite, "ShowPathbar", "false"], ["rm", suite, "ShowPathbar"],
                ["reset", suite, "ShowPathbar"], ["get", suite, "/ShowPathbar/x"],
            ] {
                let result = try sandbox.run(try Binaries.url("jarvis"), command)
                #expect(result.status != 0, "\(command)")
            }
        }
        // A visible suite is read while traced, so the trace is known to work.
        let visible = try sandbox.jarvis("get", "com.example.app", "user_name")
        #expect(visible.stdout == "Ada\n")
        let traced = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        while !traced().contains("com.example.app"), Date() < deadline { usleep(20_000) }
        // SIGKILL: a child started from a test's worker thread never sees SIGTERM or SIGINT
        // (see TrustEndToEndTests.end); the kernel detaches the agent when strace dies.
        kill(strace.processIdentifier, SIGKILL)
        strace.waitUntilExit()
        let lines = traced().split(separator: "\n")
        #expect(lines.contains { $0.contains("com.example.app") }, "the trace saw nothing")
        let touched = lines.filter { $0.contains("com.apple.finder") || $0.contains("com.apple.nothing") }
        #expect(touched.isEmpty, "the agent touched hidden names:\n\(touched.joined(separator: "\n"))")
    }
}
