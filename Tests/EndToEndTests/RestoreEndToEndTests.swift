import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// `jarvis restore` on the real binaries: a preview of what would be added, changed and
/// removed, and one change that is put back whole when any write is refused.
@Suite struct RestoreEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    static let first = "{\n  \"k\": 1,\n  \"gone\": true,\n  \"last\": 0\n}\n"

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.first.utf8).write(to: folder.appendingPathComponent("a.json"))
        try Data("{\"k\": 1}\n".utf8).write(to: folder.appendingPathComponent("b.json"))
    }

    private func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    private func change() throws {
        for arguments in [["set", "a.json", "k", "2"], ["set", "a.json", "new", "x"], ["rm", "a.json", "gone"], ["set", "b.json", "k", "2"]] {
            let result = try sandbox.run(Binaries.url("jarvis"), arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    @Test func aDryRunPreviewsAddedChangedAndRemovedThenTheRestoreIsExact() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        try change()
        let changed = try text("a.json")
        let dry = try sandbox.jarvis("restore", "--to", "0", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("added    files:a.json gone"), "\(dry.stdout)")
        #expect(dry.stdout.contains("changed  files:a.json k: 2 → 1"), "\(dry.stdout)")
        #expect(dry.stdout.contains("removed  files:a.json new"), "\(dry.stdout)")
        #expect(dry.stdout.contains("would restore 4 keys"), "\(dry.stdout)")
        #expect(try text("a.json") == changed, "a dry run writes nothing")
        let restored = try sandbox.jarvis("restore", "--to", "0", "a.json")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try text("a.json") == Self.first, "back byte for byte")
        #expect(try text("b.json").contains("2"), "only the container named")
    }

    @Test func restoreToAnEntryLeavesEveryKeyAsThatEntryLeftIt() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        try change()
        // Entry 2 (new = x) stays, as entry 1 (k = 2) before it; what came after goes back.
        let dry = try sandbox.jarvis("restore", "--to", "2", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("added    files:a.json gone"), "\(dry.stdout)")
        #expect(dry.stdout.contains("changed  files:b.json k: 2 → 1"), "\(dry.stdout)")
        #expect(!dry.stdout.contains("a.json k") && !dry.stdout.contains("a.json new"), "\(dry.stdout)")
        #expect(dry.stdout.contains("would restore 2 keys"), "\(dry.stdout)")
        let restored = try sandbox.jarvis("restore", "--to", "2")
        #expect(restored.status == 0, "\(restored.stderr)")
        let a = try JSONParser.parse(Array(try text("a.json").utf8))
        #expect(a["k"]?.int64Value == 2 && a["new"]?.stringValue == "x" && a["gone"]?.boolValue == true, "\(a)")
        #expect(try text("b.json").contains("1"))
        // The newest entry named: nothing after it, nothing to do.
        let newest = try sandbox.jarvis("history", "--json")
        let last = try #require(
            (try JSONParser.parse(Array(newest.stdout.utf8))["entries"]?.arrayValue ?? []).last?["id"]?.int64Value)
        let none = try sandbox.jarvis("restore", "--to", String(last), "--dry-run")
        #expect(none.status == 0 && none.stdout.contains("Nothing to restore"), "\(none.stdout) \(none.stderr)")
    }

    @Test func aRefusedWritePutsBackWhatTheRestoreHadWritten() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        try change()
        let changed = try text("a.json")
        // b.json's key can no longer be written: its file is gone, and a JSON file is never created.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("b.json"))
        let refused = try sandbox.jarvis("restore", "--to", "0")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("were put back"), "\(refused.stderr)")
        #expect(try text("a.json") == changed, "a.json's keys, restored first, were put back")
    }

    @Test func productionRefusesRestore() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        try change()
        agent.process.terminate()
        agent.process.waitUntilExit()
        _ = try AgentProcess(sandbox, ["--files", folder.path, "--production"])
        let refused = try sandbox.jarvis("restore", "--to", "1")
        #expect(refused.status == 1 && refused.stderr.contains("production"), "\(refused.stderr)")
    }
}
