import Foundation
import JarvisTestSupport
import JarvisCore
import JarvisRemote
import Testing

/// Issue 27 item 6 (MCP listens) through the real `jarvis-agent`, `jarvis mcp` and `jarvis set`:
/// `subscriptions/listen` streams are capped per session and per resource, and one change is
/// told once to the session, however many of its streams name the resource.
@Suite(.serialized) struct MCPListenCapsEndToEndTests {
    /// `jarvis mcp` kept running: lines are written as the test goes, and what it prints is
    /// collected for the test to wait on.
    final class LiveSession: Sendable {
        let process: Process
        let input: FileHandle
        let lines = Locked<[JSONValue]>([])

        init(_ sandbox: Sandbox) throws {
            process = Process()
            process.executableURL = try Binaries.url("jarvis")
            process.arguments = ["mcp"]
            process.environment = sandbox.environment
            let stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            input = stdin.fileHandleForWriting
            let reader = stdout.fileHandleForReading
            let lines = lines
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { return }
                    pending.append(chunk)
                    while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                        pending = Data(pending[(end + 1)...])
                        if let json = try? JSONParser.parse(line) { lines.withLock { $0.append(json) } }
                    }
                }
            }
        }

        func send(_ line: String) { input.writeQuietly((line + "\n").utf8) }

        /// Waits until `condition` holds for what was printed so far (at most 20 seconds).
        func waitFor(_ what: String, _ condition: ([JSONValue]) -> Bool) throws {
            let deadline = Date().addingTimeInterval(20)
            while !condition(lines.current) {
                guard Date() < deadline else { throw HarnessError("timed out waiting for \(what)") }
                usleep(10_000)
            }
        }

        func end() {
            try? input.close()
            process.waitUntilExit()
        }
    }

    static let meta =
        #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"listener","version":"1"}}"#

    static func listen(_ id: Int, _ uri: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"subscriptions/listen","params":{\#(meta),"notifications":{"resourceSubscriptions":["\#(uri)"]}}}"#
    }

    static func updates(_ lines: [JSONValue], _ uri: String) -> [JSONValue] {
        lines.filter { $0["method"] == "notifications/resources/updated" && $0["params"]?["uri"]?.stringValue == uri }
    }

    @Test func listensAreCappedAndOneChangeIsToldOnce() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["k": "v"])
        try sandbox.writeSuite("com.example.other", in: folder, ["k": "v"])
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--name", "local"])
        let app = "jarvis://local/defaults/com.example.app"
        let other = "jarvis://local/defaults/com.example.other"
        let session = try LiveSession(sandbox)
        defer { session.end() }
        // Fifteen streams name `app`, one `other`, and a seventeenth is one too many.
        for id in 1...15 { session.send(Self.listen(id, app)) }
        session.send(Self.listen(16, other))
        session.send(Self.listen(17, app))
        try session.waitFor("the acknowledgements and the refusal") { lines in
            lines.filter { $0["method"] == "notifications/subscriptions/acknowledged" }.count == 16
                && lines.contains { $0["id"]?.int64Value == 17 }
        }
        let printed = session.lines.current
        let refusal = printed.first { $0["id"]?.int64Value == 17 }
        #expect(refusal?["error"]?["message"]?.stringValue?.contains("16 subscriptions/listen streams open") == true)
        let honoring = printed.filter {
            $0["method"] == "notifications/subscriptions/acknowledged"
                && $0["params"]?["notifications"]?["resourceSubscriptions"]?.arrayValue?.contains(.string(app)) == true
        }
        #expect(honoring.count == 4, "\(honoring)")

        // A change to `app`, then one to `other`: the agent tells them in that order on one
        // connection, so once `other`'s update is out, every update of `app` is too.
        #expect(try sandbox.jarvis("set", "defaults:com.example.app", "k", "w").status == 0)
        #expect(try sandbox.jarvis("set", "defaults:com.example.other", "k", "w").status == 0)
        try session.waitFor("the update of the other suite") { !Self.updates($0, other).isEmpty }
        let told = Self.updates(session.lines.current, app)
        #expect(told.count == 1, "\(told)")
    }
}
