import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// One change, one undo (issue 43 item 3), on the real binaries: a restore and a bulk delete of
/// several keys are one journal entry group that one `jarvis undo` takes back whole, and a
/// restore refused in the middle leaves its files as they were and nothing for the next undo.
@Suite struct GroupUndoEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    static let names = ["a.json", "b.json", "c.json"]

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in Self.names {
            try Data("{\"k\": 1}\n".utf8).write(to: folder.appendingPathComponent(name))
        }
    }

    private func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    private func k(_ name: String) throws -> Int64? {
        try JSONParser.parse(Array(try text(name).utf8))["k"]?.int64Value
    }

    /// Every file's `k` set to 2, one `jarvis set` each.
    private func setAll() throws {
        for name in Self.names {
            let result = try sandbox.jarvis("set", name, "k", "2")
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
    }

    @Test func oneUndoTakesBackAWholeRestoreAndOneRedoPutsItBack() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        try setAll()
        let restored = try sandbox.jarvis("restore", "--to", "0")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("restored 3 keys as one change"), "\(restored.stdout)")
        #expect(!restored.stdout.contains("once per key"), "\(restored.stdout)")
        #expect(try Self.names.map(k) == [1, 1, 1])
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try Self.names.map(k) == [2, 2, 2], "one undo took back every key of the restore: \(undone.stdout)")
        #expect(undone.stdout.contains("3 keys"), "\(undone.stdout)")
        // The history shows the restore as one line naming its keys.
        let history = try sandbox.jarvis("history")
        let lines = history.stdout.split(separator: "\n").filter { $0.contains("restore") }
        #expect(lines.count == 1, "\(history.stdout)")
        #expect(lines.first.map { $0.contains("3 keys") } == true, "\(history.stdout)")
        let redone = try sandbox.jarvis("redo")
        #expect(redone.status == 0, "\(redone.stderr)")
        #expect(try Self.names.map(k) == [1, 1, 1], "one redo put the whole restore back: \(redone.stdout)")
    }

    @Test func aRestoreWhoseMiddleWriteFailsLeavesTheFilesAndNothingForTheNextUndo() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        try setAll()
        let before = try Self.names.map(text)
        // b.json's key, the restore's second, can no longer be written: its file is gone, and a
        // JSON file is never created.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("b.json"))
        let refused = try sandbox.jarvis("restore", "--to", "0")
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("put back"), "\(refused.stderr)")
        #expect(try text("a.json") == before[0], "a.json, restored first, was put back byte for byte")
        #expect(try text("c.json") == before[2], "c.json was never written")
        // The next plain undo takes back the newest change that stands (c.json's set), nothing
        // of the refused restore.
        let undone = try sandbox.jarvis("undo", "--json")
        #expect(undone.status == 0, "\(undone.stderr)")
        let answer = try JSONParser.parse(Array(undone.stdout.utf8))
        #expect(answer["undone"]?["action"]?.stringValue == "set", "\(undone.stdout)")
        #expect(answer["undone"]?["container"]?.stringValue == "c.json", "\(undone.stdout)")
        #expect(try k("a.json") == 2, "a.json keeps what it held: the refused restore is not re-applied")
        #expect(try k("c.json") == 1)
        // Neither is any of it taken back by id, and the agent answers on.
        let journal = try JSONParser.parse(Array(try sandbox.jarvis("history", "--json").stdout.utf8))
        let restoreEntries = (journal["entries"]?.arrayValue ?? []).filter {
            $0["action"]?.stringValue == "restore" || $0["action"]?.stringValue == "rollback"
        }
        #expect(!restoreEntries.isEmpty && restoreEntries.allSatisfy { $0["undoable"]?.boolValue == false }, "\(journal)")
        #expect(agent.process.isRunning)
    }

    @Test func oneUndoPutsBackEveryKeyABulkDeleteRemoved() throws {
        try Data("{\n  \"x1\": 1,\n  \"x2\": 2,\n  \"x3\": 3,\n  \"y\": 0\n}\n".utf8)
            .write(to: folder.appendingPathComponent("a.json"))
        let original = try text("a.json")
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        let removed = try sandbox.jarvis("rm", "a.json", "--match", "x*")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("as one change"), "\(removed.stdout)")
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try text("a.json") == original, "one undo put all three keys back: \(undone.stdout)")
    }

    /// A snapshot of every file as it is now (`k` = 1 each).
    private func snapshot() throws -> String {
        let file = sandbox.root.appendingPathComponent("snapshot.json").path
        let exported = try sandbox.jarvis("export", "*.json", "--output", file)
        #expect(exported.status == 0, "\(exported.stderr)")
        return file
    }

    @Test func oneUndoTakesBackAWholeImport() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        let file = try snapshot()
        try setAll()
        let imported = try sandbox.jarvis("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.names.map(k) == [1, 1, 1])
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try Self.names.map(k) == [2, 2, 2], "one undo took back every key of the import: \(undone.stdout)")
    }

    @Test func anImportWhoseMiddleWriteFailsLeavesNothingForTheNextUndo() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let file = try snapshot()
        try setAll()
        let before = try text("a.json")
        // b.json's key, the import's second, can no longer be written (its file is gone).
        try FileManager.default.removeItem(at: folder.appendingPathComponent("b.json"))
        let refused = try sandbox.jarvis("import", file)
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stdout.contains("the import was undone"), "\(refused.stdout)")
        #expect(try text("a.json") == before, "a.json, imported first, was put back")
        let undone = try sandbox.jarvis("undo", "--json")
        #expect(undone.status == 0, "\(undone.stderr)")
        let answer = try JSONParser.parse(Array(undone.stdout.utf8))
        #expect(answer["undone"]?["container"]?.stringValue == "c.json", "\(undone.stdout)")
        #expect(try k("a.json") == 2, "the refused import is not re-applied")
        #expect(agent.process.isRunning)
    }
}
