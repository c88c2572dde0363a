import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

#if canImport(Glibc)
    import Glibc
#endif

/// The journal file: what it keeps (never a secret's values), its byte budget, and the files
/// it sets aside instead of trusting.
@Suite struct JournalFileTests {
    let folder: URL

    init() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("journal-\(UUID().uuidString)")
    }

    private func entry(_ key: String, _ value: PreferenceValue?, before: PreferenceValue = "old", secret: Bool = false)
        -> JournalEntry
    {
        JournalEntry(
            action: .set, address: PreferenceAddress(scanner: "s", container: "c", key: key), before: before,
            after: value, beforeRevision: Revision(of: before), afterRevision: value.map { Revision(of: $0) },
            client: AuditRecord.Client(transport: .unix, peer: "p", name: "n"), isSecret: secret)
    }

    private static let places = ["files=/projects/a"]

    private func opened(budget: Int = 1 << 20, places: [String] = places) -> JournalFile.Opened {
        JournalFile.load(folder: folder, agent: "app", places: places, budget: budget)
    }

    /// The journal file's path for the default places.
    private var path: String {
        folder.appendingPathComponent(JournalFile.fileName(for: "app", places: Self.places)).path
    }

    @Test func entriesComeBackAfterARestartAndASecretsValuesNever() throws {
        var first = opened()
        let journal = ChangeJournal()
        journal.open(budget: 1 << 20, store: first.file, entries: first.entries, problems: first.problems)
        journal.record(entry("theme", .date(Date(timeIntervalSince1970: 1_700_000_000.25))))
        journal.record(entry("token", "hunter2", before: "swordfish", secret: true))
        first.file?.close()
        first = opened()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("hunter2") && !text.contains("swordfish"), "\(text)")
        #expect(first.problems.isEmpty && first.entries.count == 2)
        #expect(first.entries[0].after == .date(Date(timeIntervalSince1970: 1_700_000_000.25)))
        #expect(first.entries[1].isSecret && !first.entries[1].valuesKept && first.entries[1].after == nil)
        // A second agent of the same name keeps its journal in memory only.
        let second = opened()
        #expect(second.file == nil && second.problems.first?.contains("another agent") == true)
        first.file?.close()
    }

    @Test func theFileStaysWithinItsBudget() throws {
        let budget = 20_000
        let first = opened(budget: budget)
        let journal = ChangeJournal()
        journal.open(budget: budget, store: first.file, entries: [], problems: [])
        for round in 0..<100 {
            journal.record(entry("k", .string(String(repeating: "v", count: 900 + round))))
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(size <= budget)
        }
        first.file?.close()
        let again = opened(budget: budget)
        #expect(again.problems.isEmpty && !again.entries.isEmpty)
        again.file?.close()
    }

    @Test(arguments: ["foreign", "loose", "large"]) func anUntrustedFileIsSetAside(_ kind: String) throws {
        opened().file?.close()
        let path = self.path
        switch kind {
        case "foreign":
            guard geteuid() == 0 else { return }  // only root can give a file away
            #expect(chown(path, 4242, 4242) == 0)
        case "loose": #expect(chmod(path, 0o644) == 0)
        default: try Data(repeating: 65, count: 4096).write(to: URL(fileURLWithPath: path))
        }
        let again = opened(budget: 1024)
        #expect(again.problems.first?.contains("set aside") == true, "\(again.problems)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.contains(".journal.set-aside-") }, "\(names)")
        again.file?.close()
    }

    /// Two agents of one name serving different places keep different files, at once and in
    /// turn; the same places find their own entries again.
    @Test func theFileIsChosenByThePlacesServed() throws {
        let projectA = opened(places: ["files=/projects/a"])
        let projectB = opened(places: ["files=/projects/b"])
        #expect(projectA.file != nil && projectB.file != nil, "\(projectA.problems) \(projectB.problems)")
        #expect(projectA.file?.path != projectB.file?.path)
        let journal = ChangeJournal()
        journal.open(budget: 1 << 20, store: projectA.file, entries: [], problems: [])
        journal.record(entry("debug", .boolean(true), before: .boolean(false)))
        projectA.file?.close()
        projectB.file?.close()
        #expect(opened(places: ["files=/projects/b"]).entries.isEmpty)
        let again = opened(places: ["files=/projects/a"])
        #expect(again.entries.map(\.address.key) == ["debug"])
        again.file?.close()
        // Order of the scanners does not matter; their places do.
        #expect(
            JournalFile.fileName(for: "app", places: ["a=1", "b=2"])
                == JournalFile.fileName(for: "app", places: ["b=2", "a=1"]))
    }

    /// A file swapped for a link, loosened or given away while the agent runs is set aside at
    /// the next write, never written through; the journal goes on in memory with a problem.
    @Test(arguments: ["link", "loose", "hardlink"]) func aFileChangedWhileRunningIsSetAside(_ kind: String) throws {
        let first = opened()
        let journal = ChangeJournal()
        journal.open(budget: 1 << 20, store: first.file, entries: [], problems: [])
        journal.record(entry("a", "one"))
        let victim = folder.deletingLastPathComponent().appendingPathComponent("victim-\(UUID().uuidString)")
        try Data("precious\n".utf8).write(to: victim)
        #expect(chmod(victim.path, 0o644) == 0)
        switch kind {
        case "link":
            #expect(unlink(path) == 0)
            #expect(symlink(victim.path, path) == 0)
        case "loose": #expect(chmod(path, 0o666) == 0)
        default: #expect(link(path, victim.path + ".second") == 0)
        }
        journal.record(entry("b", "two"))
        journal.record(entry("c", "three"))
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n", "the link's target is untouched")
        var info = stat()
        #expect(stat(victim.path, &info) == 0 && info.st_mode & 0o777 == 0o644, "its mode too")
        #expect(journal.problems.contains { $0.contains("set aside") && $0.contains("memory only") }, "\(journal.problems)")
        #expect(journal.entries().map(\.address.key) == ["a", "b", "c"], "the journal goes on in memory")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.contains(".journal.set-aside-") }, "\(names)")
        first.file?.close()
        unlink(victim.path + ".second")
        unlink(victim.path)
    }

    /// Ids near `Int64.max` in a file are numbered again: the agent starts and writes on.
    @Test(arguments: [Int64.max, Int64.max - 1]) func idsNearTheEndAreNumberedAgain(_ id: Int64) throws {
        var crafted = entry("a", "one")
        crafted.id = id
        var undo = entry("a", "old", before: "one")
        undo.id = id - 1
        undo.action = .undo
        undo.reverts = id
        let first = opened()
        _ = first.file?.append([undo, crafted], keeping: { [] })
        first.file?.close()
        let again = opened()
        let journal = ChangeJournal()
        journal.open(budget: 1 << 20, store: again.file, entries: again.entries, problems: again.problems)
        let recorded = journal.record(entry("b", "two"))
        #expect(recorded.id == 3, "\(journal.entries().map(\.id))")
        #expect(journal.entries().map(\.id) == [1, 2, 3])
        #expect(journal.entries()[0].reverts == 2, "an undo still names the entry it took back")
        #expect(journal.problems.contains { $0.contains("numbered again") }, "\(journal.problems)")
        again.file?.close()
    }

    @Test func aGroupAndARollbackComeBackAfterARestartAndAnOldFileStillLoads() throws {
        var first = opened()
        let journal = ChangeJournal()
        journal.open(budget: 1 << 20, store: first.file, entries: first.entries, problems: first.problems)
        let group = JournalGroup()
        var restore = entry("a", "new")
        restore.action = .restore
        journal.record([restore], group: group)
        restore.address.key = "b"
        let second = journal.record([restore], group: group)[0]
        var rollback = entry("b", "old", before: "new")
        rollback.action = .rollback
        rollback.reverts = second.id
        journal.record([rollback], group: group)
        journal.record(entry("c", "plain"))
        first.file?.close()
        first = opened()
        #expect(first.problems.isEmpty, "\(first.problems)")
        #expect(first.entries.map(\.group) == [1, 1, 1, nil])
        let again = ChangeJournal()
        again.open(budget: 1 << 20, store: nil, entries: first.entries, problems: [])
        #expect(again.entry(2)?.isRolledBack == true && again.entry(1)?.undoneBy == nil)
        #expect(again.standing(inGroup: 1).map(\.id) == [1], "b's entry was rolled back; the rollback never stands")
        #expect(again.newestUndoable()?.id == 4)
        first.file?.close()
        // A line written before groups existed reads as a change of one key.
        var plain = entry("d", "x")
        plain.id = 1
        let old = JournalFile.line(plain).filter { $0 != 10 }
        let text = String(decoding: old, as: UTF8.self)
        #expect(!text.contains("group"))
        let decoded = JournalFile.decode(JournalFile.header + old + [10])
        #expect(decoded?.count == 1 && decoded?[0].group == nil)
    }
}
