import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

/// Issue 28 item 5 in the other faces, with the real binaries: `jarvis watch` in an 80-column
/// terminal, `jarvis inspect` marking the container live, and `jarvis mcp` telling a listener.
@Suite struct UnreadableWatchFacesEndToEndTests {
    let sandbox: Sandbox
    let file: URL

    init() throws {
        sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("app.json")
        try Data(#"{"port": 8080, "debug": true}"#.utf8).write(to: file)
        _ = try AgentProcess(sandbox, ["--files", folder.path, "--name", "local"])
    }

    private func breakFile() throws { try Data(#"{"port": 8081 "debug": true}"#.utf8).write(to: file) }
    private func fixFile() throws { try Data(#"{"port": 8081, "debug": true}"#.utf8).write(to: file) }

    @Test(
        .enabled(
            if: Tmux.isAvailable || OptionalTool.inCI, OptionalTool.hint(["tmux"], install: "apt-get install tmux")))
    func watchFitsEightyColumnsAndInspectShowsTheProblemLive() throws {
        let jarvis = try Binaries.url("jarvis").path
        let watch = try Tmux(
            command: "'\(jarvis)' watch; sleep 60", environment: sandbox.environment, folder: sandbox.root, columns: 80,
            rows: 24)
        let inspect = try Tmux(
            command: "'\(jarvis)' inspect; sleep 60", environment: sandbox.environment, folder: sandbox.root,
            columns: 80, rows: 24)
        try watch.wait(for: "watching from sequence")
        try inspect.wait(for: "app.json")
        try breakFile()
        let broken = try watch.wait(for: "unreadable files:app.json")
        let line = try #require(broken.split(separator: "\n").first { $0.contains("unreadable") })
        // One line, cut with … and still ending with its sequence number: never wrapped.
        #expect(line.contains("not valid JSON: line 1, column 15:") && line.hasSuffix("…  #1"), "\(broken)")
        #expect(line.count <= 80)
        // The container list marks it at once, its two keys kept.
        let marked = try inspect.wait(for: "not valid JSON")
        #expect(marked.split(separator: "\n").contains { $0.contains("app.json") && $0.contains(" 2 ") }, "\(marked)")

        try fixFile()
        let fixed = try watch.wait(for: "again, 1 key changed")
        #expect(fixed.contains("port  8080 → 8081") && !fixed.contains("removed"), "\(fixed)")
        try inspect.wait("the problem to clear") { !$0.contains("not valid JSON") && $0.contains("8080 → 8081") }
    }

    @Test func anMCPListenerIsToldAndReadsTheProblem() throws {
        let uri = "jarvis://local/files/app.json"
        let session = try MCPListenCapsEndToEndTests.LiveSession(sandbox)
        defer { session.end() }
        session.send(MCPListenCapsEndToEndTests.listen(1, uri))
        try session.waitFor("the acknowledgement") {
            $0.contains { $0["method"] == "notifications/subscriptions/acknowledged" }
        }
        try breakFile()
        try session.waitFor("the update") { !MCPListenCapsEndToEndTests.updates($0, uri).isEmpty }
        let meta = MCPListenCapsEndToEndTests.meta
        session.send(#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{\#(meta),"uri":"\#(uri)"}}"#)
        try session.waitFor("the read") { $0.contains { $0["id"]?.int64Value == 2 } }
        let read = try #require(session.lines.current.first { $0["id"]?.int64Value == 2 })
        let text = String(decoding: JSONWriter.bytes(read), as: UTF8.self)
        #expect(text.contains("not valid JSON: line 1, column 15"), "\(text)")
    }
}
