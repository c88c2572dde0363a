import Foundation
import Testing

@testable import JarvisCore

/// One change, one undo: a restore and a bulk delete are one journal entry group, taken back
/// whole or not at all, and a change refused part way leaves nothing for undo or redo.
@Suite struct JarvisHubGroupUndoTests {
    static let client = AuditRecord.Client(transport: .unix, peer: "test", name: "tester")
    let scanner = CountingScanner(id: "memory", contents: ["app": ["a": 1, "b": 1, "c": 1, "y": 0]])
    let hub = JarvisHub(configuration: .debug)

    init() {
        hub.register(scanner)
    }

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "memory", container: "app", key: key)
    }

    func values(_ keys: [String] = ["a", "b", "c"]) throws -> [PreferenceValue?] {
        try keys.map { key in try hub.get(address(key)).value }
    }

    /// `a`, `b` and `c` set to 2, one write each.
    func setAll() throws {
        for key in ["a", "b", "c"] { try hub.set(address(key), to: 2) }
    }

    @Test func aRestoreIsOneGroupThatOneUndoTakesBackAndOneRedoPutsBack() throws {
        try setAll()
        let changes = try hub.restore(to: .entry(0), containers: [], dryRun: false, origin: Self.client)
        #expect(changes.count == 3)
        let restore = hub.journal.entries().filter { $0.action == .restore }
        #expect(restore.count == 3 && Set(restore.map(\.group)) == [restore[0].id], "one group, named by its first entry")
        let undone = try hub.undo(.init(), origin: Self.client)
        #expect(try values() == [2, 2, 2])
        #expect(undone.group.map(\.id) == restore.map(\.id) && undone.recordedGroup.count == 3)
        #expect(Set(undone.recordedGroup.map(\.group)) == [undone.recordedGroup[0].id], "the undo is a group of its own")
        let redone = try hub.undo(.init(redo: true), origin: Self.client)
        #expect(try values() == [1, 1, 1])
        #expect(redone.recordedGroup.allSatisfy { $0.action == .redo })
        // The next undo takes back the redo whole, then the sets one by one.
        _ = try hub.undo(.init(), origin: Self.client)
        #expect(try values() == [2, 2, 2])
        _ = try hub.undo(.init(), origin: Self.client)
        #expect(try values() == [2, 2, 1])
    }

    @Test func aRestoreRefusedMidwayLeavesTheValuesAndNothingForUndoOrRedo() throws {
        try setAll()
        scanner.failWrites(toKey: "b")
        #expect(throws: JarvisError.self) {
            try hub.restore(to: .entry(0), containers: [], dryRun: false, origin: Self.client)
        }
        scanner.failWrites(toKey: nil)
        #expect(try values() == [2, 2, 2], "a, written first, was put back; c never written")
        let entries = hub.journal.entries()
        let forward = try #require(entries.first { $0.action == .restore })
        let rollback = try #require(entries.first { $0.action == .rollback })
        #expect(rollback.reverts == forward.id && rollback.group == forward.group)
        #expect(hub.journal.entry(forward.id)?.isRolledBack == true)
        // Neither is taken back, with or without an id.
        #expect(throws: JarvisError.self) { try hub.undo(.init(id: forward.id), origin: Self.client) }
        #expect(throws: JarvisError.self) { try hub.undo(.init(id: rollback.id), origin: Self.client) }
        #expect(throws: JarvisError.self) { try hub.undo(.init(id: rollback.id, redo: true), origin: Self.client) }
        let undone = try hub.undo(.init(), origin: Self.client)
        #expect(undone.entry.action == .set && undone.entry.address.key == "c", "the newest change that stands")
        #expect(try values() == [2, 2, 1])
        let redone = try hub.undo(.init(redo: true), origin: Self.client)
        #expect(redone.entry.reverts == undone.entry.id, "redo takes back the undo, nothing of the restore")
        #expect(try values() == [2, 2, 2])
    }

    @Test func aGroupUndoChecksEveryKeyFirstAndWritesNothingWhenOneChanged() throws {
        try setAll()
        _ = try hub.restore(to: .entry(0), containers: [], dryRun: false, origin: Self.client)
        try hub.set(address("c"), to: 5)
        let writes = scanner.calls.writes
        let dry = try hub.undo(.init(id: 4, dryRun: true), origin: Self.client)
        #expect(dry.isConflict && dry.entry.address.key == "c", "the restore's c changed since")
        // c's own set is newest now; the restore is taken by id.
        let conflict = try hub.undo(.init(id: 5), origin: Self.client)
        #expect(conflict.isConflict && conflict.recorded == nil && conflict.group.count == 3)
        #expect(scanner.calls.writes == writes, "nothing was written")
        #expect(try values() == [1, 1, 5])
        #expect(throws: JarvisError.self) { try hub.undo(.init(id: 4, forceAt: Revision(of: 5)), origin: Self.client) }
    }

    @Test func aGroupUndoRefusedMidwayIsPutBackAndTheChangeStillStands() throws {
        try setAll()
        _ = try hub.restore(to: .entry(0), containers: [], dryRun: false, origin: Self.client)
        scanner.failWrites(toKey: "b")
        #expect(throws: JarvisError.self) { try hub.undo(.init(), origin: Self.client) }
        scanner.failWrites(toKey: nil)
        #expect(try values() == [1, 1, 1], "a's undo was put back")
        #expect(hub.journal.entries().filter { $0.action == .restore }.allSatisfy { $0.undoneBy == nil })
        // The journal read back from a file says the same: ids and groups carry the marks.
        let copy = ChangeJournal()
        copy.open(budget: ChangeJournal.defaultBudget, store: nil, entries: hub.journal.entries(), problems: [])
        #expect(copy.newestUndoable()?.action == .restore)
        #expect(copy.newestRedoable() == nil, "the refused undo leaves nothing to redo")
        let undone = try hub.undo(.init(), origin: Self.client)
        #expect(undone.group.count == 3)
        #expect(try values() == [2, 2, 2])
    }

    @Test func aBulkDeleteIsOneGroupAndOneRefusedMidwayPutsBackWhatWent() throws {
        try hub.delete(matching: GlobPattern("[ab]"), scanner: "memory", container: "app")
        let deletes = hub.journal.entries()
        #expect(deletes.count == 2 && Set(deletes.map(\.group)) == [deletes[0].id])
        _ = try hub.undo(.init(), origin: Self.client)
        #expect(try values() == [1, 1, 1])
        // b, the second key, cannot be removed: a goes back, and nothing is journaled.
        let before = hub.journal.entries().count
        scanner.failWrites(toKey: "b")
        #expect(throws: JarvisError.self) {
            try hub.delete(matching: GlobPattern("[abc]"), scanner: "memory", container: "app")
        }
        scanner.failWrites(toKey: nil)
        #expect(try values() == [1, 1, 1])
        #expect(hub.journal.entries().count == before)
    }
}
