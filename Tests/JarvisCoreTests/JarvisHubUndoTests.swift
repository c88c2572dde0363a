import Foundation
import JarvisScanners
import Testing

@testable import JarvisCore

/// The journal and undo through the hub with a real scanner: what is recorded, the byte
/// budget, and the refusals that write nothing.
@Suite struct JarvisHubUndoTests {
    static let client = AuditRecord.Client(transport: .unix, peer: "test", name: "tester")

    func hub(_ configuration: JarvisConfiguration = .debug) -> JarvisHub {
        let scanner = MemoryScanner(
            id: "memory",
            contents: ["app": ["theme": "dark", "profile": ["tags": ["swift", "math"], "name": "Ada"], "private_token": "t"]])
        let hub = JarvisHub(configuration: configuration)
        hub.register(scanner)
        return hub
    }

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "memory", container: "app", key: key)
    }

    @Test func everyWritePathIsJournaledWithValuesRevisionsAndWho() throws {
        let hub = hub()
        try hub.set(address("theme"), to: "light")
        try hub.set(address("profile"), pointer: JSONPointer(parsing: "/tags/-"), to: "ios")
        try hub.delete(address("theme"))
        let entries = hub.journal.entries()
        #expect(entries.map(\.action) == [.set, .set, .delete])
        #expect(entries[0].before == "dark" && entries[0].after == "light")
        #expect(entries[0].beforeRevision == Revision(of: "dark") && entries[0].afterRevision == Revision(of: "light"))
        #expect(entries[0].client?.transport == .inProcess)
        #expect(entries[1].pointer?.description == "/tags/2", "the append's place, as it became")
        #expect(entries[1].memberBefore == nil && entries[1].memberAfter == "ios")
        #expect(entries[2].after == nil && entries[2].afterRevision == nil)
        #expect(entries.map(\.id) == [1, 2, 3])
    }

    @Test func undoStepsBackAndRedoTakesBackTheUndo() throws {
        let hub = hub()
        try hub.set(address("theme"), to: "light")
        try hub.set(address("theme"), to: "blue")
        _ = try hub.undo(.init(), origin: Self.client)
        #expect(try hub.get(address("theme")).value == "light")
        _ = try hub.undo(.init(), origin: Self.client)
        #expect(try hub.get(address("theme")).value == "dark")
        #expect(throws: JarvisError.self) { try hub.undo(.init(), origin: Self.client) }
        let redone = try hub.undo(.init(redo: true), origin: Self.client)
        #expect(redone.recorded?.action == .redo)
        #expect(try hub.get(address("theme")).value == "light")
        // Undo now takes back the redo, then steps past what was undone.
        _ = try hub.undo(.init(), origin: Self.client)
        #expect(try hub.get(address("theme")).value == "dark")
    }

    @Test func aConflictWritesNothingAndForceAtTheCurrentRevisionWrites() throws {
        let hub = hub()
        try hub.set(address("theme"), to: "light")
        try hub.set(address("theme"), to: "blue", expectedRevision: nil)
        let conflict = try hub.undo(.init(id: 1), origin: Self.client)
        #expect(conflict.isConflict && conflict.recorded == nil && conflict.restoring == "dark")
        #expect(conflict.current?.value == "blue")
        #expect(try hub.get(address("theme")).value == "blue")
        let forced = try hub.undo(.init(id: 1, forceAt: conflict.current?.revision), origin: Self.client)
        #expect(!forced.isConflict && forced.recorded?.reverts == 1)
        #expect(try hub.get(address("theme")).value == "dark")
    }

    @Test func aValueTheCatalogNoLongerAllowsIsRefusedWithTheReason() throws {
        let hub = hub()
        try hub.set(address("theme"), to: "light")
        var configuration = JarvisConfiguration.debug
        configuration.catalog = [
            KeyDefinition("theme", in: "app", scanner: "memory", type: .string, allowedValues: ["light", "system"])
        ]
        try hub.update(configuration: configuration)
        do {
            _ = try hub.undo(.init(), origin: Self.client)
            Issue.record("the catalog refuses 'dark'")
        } catch {
            #expect(error.code == .typeMismatch && error.message.contains("dark"), "\(error.message)")
        }
        #expect(try hub.get(address("theme")).value == "light")
    }

    @Test func editingOffRefusesUndoAndRestore() throws {
        let hub = hub()
        try hub.set(address("theme"), to: "light")
        try hub.update(configuration: .production)
        #expect(throws: JarvisError.self) { try hub.undo(.init(), origin: Self.client) }
        #expect(throws: JarvisError.self) {
            try hub.restore(to: .entry(1), containers: [], dryRun: true, origin: Self.client)
        }
    }

    @Test func theJournalNeverHoldsMoreThanItsBudget() throws {
        let hub = hub()
        hub.journal.open(budget: 64 << 10, store: nil, entries: [], problems: [])
        for round in 0..<50 {
            try hub.set(address("big"), to: .string(String(repeating: "x", count: 10_000 + round)))
            #expect(hub.journal.bytes <= 64 << 10)
        }
        #expect(hub.journal.entries().count < 50 && hub.journal.oldestID ?? 0 > 1)
        // One change larger than the whole budget is kept without its values: it cannot be undone.
        try hub.set(address("big"), to: .string(String(repeating: "y", count: 100_000)))
        #expect(hub.journal.bytes <= 64 << 10)
        #expect(hub.journal.entries().last?.valuesKept == false)
        #expect(throws: JarvisError.self) { try hub.undo(.init(), origin: Self.client) }
    }

    @Test func anEntryThatFellOutSaysSo() throws {
        let hub = hub()
        hub.journal.open(budget: 2_000, store: nil, entries: [], problems: [])
        for round in 0..<20 { try hub.set(address("theme"), to: .string("value \(round)")) }
        do {
            _ = try hub.undo(.init(id: 1), origin: Self.client)
            Issue.record("entry 1 fell out")
        } catch {
            #expect(error.code == .notFound && error.message.contains("fell out"), "\(error.message)")
        }
    }

    @Test func undoingACreationRemovesOnlyAnUnchangedKey() throws {
        let hub = hub()
        try hub.set(address("fresh"), to: "one")
        try hub.set(address("other"), to: "x")
        try hub.set(address("other"), to: "y")
        // The creation of 'other' (entry 2) is no longer what the key holds: nothing is removed.
        let refused = try hub.undo(.init(id: 2), origin: Self.client)
        #expect(refused.isConflict && refused.restoring == nil)
        #expect(try hub.get(address("other")).value == "y")
        // 'fresh' is as its creation left it: the undo removes it.
        let removed = try hub.undo(.init(id: 1), origin: Self.client)
        #expect(!removed.isConflict && removed.recorded?.after == nil)
        #expect(throws: JarvisError.self) { try hub.get(address("fresh")) }
    }

    @Test func aDryRunSaysWhatWouldBeWrittenAndWritesNothing() throws {
        let hub = hub()
        try hub.set(address("theme"), to: "light")
        let dry = try hub.undo(.init(dryRun: true), origin: Self.client)
        #expect(!dry.isConflict && dry.restoring == "dark" && dry.recorded == nil)
        #expect(try hub.get(address("theme")).value == "light")
        #expect(hub.journal.entries().count == 1, "a dry run is no entry")
    }

    @Test func hiddenKeysAreNeverJournaledAndOutsideChangesAreOnceEach() throws {
        var configuration = JarvisConfiguration.debug
        configuration.hide(keys: GlobPattern("private_*"))
        let hub = hub(configuration)
        try hub.set(address("theme"), to: "light")
        let changes = [
            RawChange(
                kind: .updated, key: "private_token", old: ScannedEntry(key: "private_token", value: "a"),
                new: ScannedEntry(key: "private_token", value: "b")),
            // The agent's own write, seen again by the watch: already journaled.
            RawChange(
                kind: .updated, key: "theme", old: ScannedEntry(key: "theme", value: "dark"),
                new: ScannedEntry(key: "theme", value: "light")),
            RawChange(kind: .added, key: "seen", old: nil, new: ScannedEntry(key: "seen", value: 1)),
        ]
        hub.journalOutside(changes, scanner: "memory", container: ContainerInfo("app"))
        let entries = hub.journal.entries()
        #expect(entries.map(\.address.key) == ["theme", "seen"], "\(entries)")
        #expect(entries.last?.action == .outside && entries.last?.client == nil)
        // A bulk delete never matches a hidden key either.
        let removed = try hub.delete(matching: GlobPattern("*"), scanner: "memory", container: "app")
        #expect(!removed.isEmpty && !hub.journal.entries().contains { $0.address.key.hasPrefix("private_") })
    }

    @Test func anOutsideChangeIsHeardWhenTheKeyIsNextReadOrWrittenThoughNobodyWatches() throws {
        let scanner = MemoryScanner(id: "memory", contents: ["app": ["theme": "dark", "profile": ["name": "Ada"]]])
        let hub = JarvisHub(configuration: .debug)
        hub.register(scanner)
        try hub.set(address("theme"), to: "light")
        // The program changes it; nobody watches. The next read hears it, once.
        scanner.update("app", "theme", to: "neon")
        #expect(try hub.get(address("theme")).value == "neon")
        _ = try hub.list(ListQuery(scanner: "memory"))
        var entries = hub.journal.entries()
        #expect(entries.map(\.action) == [.set, .outside], "\(entries)")
        #expect(entries[1].before == "light" && entries[1].after == "neon" && entries[1].client == nil)
        #expect(entries[1].beforeRevision == Revision(of: "light") && entries[1].afterRevision == Revision(of: "neon"))
        // Plain undo never picks the program's own write; by its id it is taken back,
        // guarded as any other.
        #expect(try hub.undo(.init(dryRun: true), origin: Self.client).entry.id == entries[0].id)
        _ = try hub.undo(.init(id: entries[1].id), origin: Self.client)
        #expect(try hub.get(address("theme")).value == "light")
        // A change made outside and then overwritten by a write with no read between: the
        // write's transaction hears it first.
        scanner.update("app", "theme", to: "sepia")
        try hub.set(address("theme"), to: "blue", expectedRevision: nil)
        entries = hub.journal.entries()
        #expect(entries.suffix(2).map(\.action) == [.outside, .set], "\(entries)")
        #expect(entries.suffix(2).first?.after == "sepia" && entries.last?.before == "sepia")
        // A removal outside is heard by the get that finds the key gone.
        scanner.update("app", "theme", to: nil)
        #expect(throws: JarvisError.self) { try hub.get(address("theme")) }
        #expect(hub.journal.entries().last?.action == .outside && hub.journal.entries().last?.after == nil)
        // Reading a member is not a change of the key.
        try hub.set(address("profile"), pointer: JSONPointer(parsing: "/name"), to: "Grace")
        let count = hub.journal.entries().count
        _ = try hub.get(address("profile"), pointer: JSONPointer(parsing: "/name"))
        _ = try hub.get(address("profile"))
        #expect(hub.journal.entries().count == count)
        // A key the journal never saw is not journaled on a read.
        scanner.update("app", "other", to: 1)
        _ = try hub.get(address("other"))
        #expect(hub.journal.entries().count == count)
    }
}
