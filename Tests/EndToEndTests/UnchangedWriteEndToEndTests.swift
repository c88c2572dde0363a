import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// A write that changes nothing, on the real binaries: answered as done, and never journaled,
/// so a plain undo takes back the change before it.
@Suite struct UnchangedWriteEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\n  \"debug\": false,\n  \"port\": 8080,\n  \"limits\": {\"a\": 1}\n}\n".utf8)
            .write(to: folder.appendingPathComponent("app.json"))
    }

    private func entries() throws -> [JSONValue] {
        let history = try sandbox.jarvis("history", "--json")
        #expect(history.status == 0, "\(history.stderr)")
        return try JSONParser.parse(Array(history.stdout.utf8))["entries"]?.arrayValue ?? []
    }

    @Test func aWriteOfTheSameValueAndTypeIsDoneAndLeavesNoEntry() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "port", "9090").status == 0)
        for arguments in [
            ["set", "app.json", "debug", "false"], ["set", "app.json", "port", "9090"],
            ["set", "app.json", "/limits/a", "1"],
        ] {
            let same = try sandbox.run(Binaries.url("jarvis"), arguments)
            #expect(same.status == 0, "\(arguments): \(same.stdout) \(same.stderr)")
        }
        let kept = try entries()
        #expect(kept.count == 1 && kept.first?["key"]?.stringValue == "port", "only the change: \(kept)")
        // The same text as another type is a change.
        #expect(try sandbox.jarvis("set", "app.json", "port", "9090", "--string").status == 0)
        #expect(try entries().count == 2)
        // A plain undo takes back the newest real change, not a write that changed nothing.
        #expect(try sandbox.jarvis("set", "app.json", "debug", "false").status == 0)
        let undo = try sandbox.jarvis("undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        let text = try String(contentsOf: folder.appendingPathComponent("app.json"), encoding: .utf8)
        #expect(text.contains(#""port": 9090"#), "\(text)")
    }
}
