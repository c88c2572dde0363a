import Foundation
import JarvisCore
import JarvisScanners
import JarvisTestSupport
import Testing

@testable import JarvisRemote

/// `change` and `rollback` on `set` and `delete`, through the real agent over its socket: one
/// connection's writes in one change are one journal group that one undo takes back, and a
/// rollback must put back exactly what that connection's write replaced.
@Suite struct AgentChangeTests {
    let folder: TemporaryFolder
    let agent: JarvisAgent
    let client: JarvisClient

    init() throws {
        folder = try TemporaryFolder()
        agent = try JarvisAgent.start(
            scanners: [MemoryScanner(id: "memory", contents: ["app": ["a": 1, "b": 1, "c": 1]])],
            options: .init(
                name: "changes", runtimeDirectory: URL(fileURLWithPath: folder.path),
                journalFolder: URL(fileURLWithPath: folder.path + "/journal")))
        client = try JarvisClient(endpoint: .unix(path: agent.socketPath))
    }

    private func set(_ key: String, _ value: PreferenceValue, change: String?, rollback: Bool = false)
        throws(JarvisError) -> PreferenceItem
    {
        var params = Wire.SetParams(Wire.Place(container: "app", key: key), value: value)
        params.change = Wire.ChangeParams(change: change, rollback: rollback)
        return try client.call(params, expecting: Wire.ItemResult.self).item
    }

    private func value(_ key: String) throws -> PreferenceValue? {
        try client.get(Wire.Place(container: "app", key: key)).value
    }

    @Test func theAgentSaysItTakesChanges() {
        defer { agent.stop() }
        #expect(client.helloResult.capabilities.changes)
    }

    @Test func writesOfOneChangeAreOneGroupThatOneUndoTakesBack() throws {
        defer { agent.stop() }
        for key in ["a", "b", "c"] { _ = try set(key, 2, change: "import-1") }
        _ = try set("a", 3, change: nil)
        let entries = try client.journal(Wire.JournalParams()).entries
        #expect(entries.map(\.group) == [1, 1, 1, nil], "\(entries.map(\.group))")
        _ = try client.undo(Wire.UndoParams(id: 4))
        let undone = try client.undo(Wire.UndoParams())
        #expect(undone.undoneGroup.count == 3 && undone.entries.count == 3)
        #expect(try ["a", "b", "c"].map(value) == [1, 1, 1])
    }

    /// A change's name is in each of its entries, kept in the journal file across a restart,
    /// and `undo` with `change` takes back that change alone, even with a newer one standing.
    @Test func eachEntryNamesItsChangeAndUndoTakesBackTheChangeNamed() throws {
        _ = try set("a", 2, change: "fanout-1")
        _ = try set("b", 2, change: "fanout-1")
        _ = try set("c", 2, change: nil)
        let entries = try client.journal(Wire.JournalParams()).entries
        #expect(entries.map(\.change) == ["fanout-1", "fanout-1", nil], "\(entries.map(\.change))")
        let undone = try client.undo(Wire.UndoParams(change: "fanout-1"))
        #expect(undone.undoneGroup.count == 2)
        #expect(try ["a", "b", "c"].map(value) == [1, 1, 2])
        #expect(throws: JarvisError.self) { try client.undo(Wire.UndoParams(change: "fanout-1")) }
        agent.stop()
        let again = try JarvisAgent.start(
            scanners: [MemoryScanner(id: "memory", contents: ["app": ["a": 1, "b": 1, "c": 2]])],
            options: .init(
                name: "changes", runtimeDirectory: URL(fileURLWithPath: folder.path),
                journalFolder: URL(fileURLWithPath: folder.path + "/journal")))
        defer { again.stop() }
        let read = try JarvisClient(endpoint: .unix(path: again.socketPath)).journal(Wire.JournalParams()).entries
        #expect(read.prefix(3).map(\.change) == ["fanout-1", "fanout-1", nil], "\(read.map(\.change))")
    }

    @Test func aKeyWrittenTwiceInOneChangeGoesBackToWhatItHeldBefore() throws {
        defer { agent.stop() }
        _ = try set("a", 2, change: "twice")
        _ = try set("b", 2, change: "twice")
        _ = try set("a", 3, change: "twice")
        let undone = try client.undo(Wire.UndoParams())
        #expect(undone.undoneGroup.count == 3)
        #expect(try ["a", "b"].map(value) == [1, 1])
        _ = try client.undo(Wire.UndoParams(), redo: true)
        #expect(try ["a", "b"].map(value) == [3, 2])
    }

    @Test func aRollbackPutsBackOnlyWhatThisConnectionsWriteReplaced() throws {
        defer { agent.stop() }
        _ = try set("a", 2, change: "import-2")
        _ = try set("b", 2, change: "import-2")
        // Not the value the write replaced, a key the change never wrote, an unknown change.
        for (key, value, change) in [("a", PreferenceValue.integer(7), "import-2"), ("c", 1, "import-2"), ("a", 1, "other")] {
            #expect(throws: JarvisError.self) { try set(key, value, change: change, rollback: true) }
        }
        // Another connection cannot roll back this one's writes.
        let other = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        var params = Wire.SetParams(Wire.Place(container: "app", key: "b"), value: 1)
        params.change = Wire.ChangeParams(change: "import-2", rollback: true)
        #expect(throws: JarvisError.self) { try other.call(params, expecting: Wire.ItemResult.self) }
        _ = try set("b", 1, change: "import-2", rollback: true)
        #expect(throws: JarvisError.self, "twice is once too many") { try set("b", 1, change: "import-2", rollback: true) }
        let entries = try client.journal(Wire.JournalParams()).entries
        #expect(entries.map(\.action) == ["set", "set", "rollback"])
        #expect(entries[1].undoable == false && entries[2].undoable == false)
        // The undo takes the part that stands (a), nothing of b.
        let undone = try client.undo(Wire.UndoParams())
        #expect(undone.undone.address.key == "a" && undone.undoneGroup.isEmpty)
        #expect(try value("a") == 1 && value("b") == 1)
        #expect(throws: JarvisError.self, "nothing else to undo") { try client.undo(Wire.UndoParams()) }
    }

    @Test func aChangeNameIsCheckedAndARollbackNeedsOne() throws {
        defer { agent.stop() }
        for raw in [
            #"{"container":"app","key":"a","value":2,"change":""}"#,
            #"{"container":"app","key":"a","value":2,"change":"\#(String(repeating: "x", count: 65))"}"#,
            #"{"container":"app","key":"a","value":2,"rollback":true}"#,
        ] {
            let params = try #require(JSONParser.parse(Array(raw.utf8)).objectValue)
            #expect(throws: JarvisError.self, "\(raw)") { try client.call("set", params) }
        }
        #expect(try value("a") == 1, "nothing was written")
    }
}
