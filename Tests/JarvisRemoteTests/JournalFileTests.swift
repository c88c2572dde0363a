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

    private func opened(budget: Int = 1 << 20) -> JournalFile.Opened {
        JournalFile.load(folder: folder, agent: "app", budget: budget)
    }

    @Test func entriesComeBackAfterARestartAndASecretsValuesNever() throws {
        var first = opened()
        let journal = ChangeJournal()
        journal.open(budget: 1 << 20, store: first.file, entries: first.entries, problems: first.problems)
        journal.record(entry("theme", .date(Date(timeIntervalSince1970: 1_700_000_000.25))))
        journal.record(entry("token", "hunter2", before: "swordfish", secret: true))
        first.file?.close()
        first = opened()
        let text = try String(contentsOf: folder.appendingPathComponent("app.journal"), encoding: .utf8)
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
            let size = try FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent("app.journal").path)[.size] as? Int ?? 0
            #expect(size <= budget)
        }
        first.file?.close()
        let again = opened(budget: budget)
        #expect(again.problems.isEmpty && !again.entries.isEmpty)
        again.file?.close()
    }

    @Test(arguments: ["foreign", "loose", "large"]) func anUntrustedFileIsSetAside(_ kind: String) throws {
        opened().file?.close()
        let path = folder.appendingPathComponent("app.journal").path
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
        #expect(names.contains { $0.hasPrefix("app.journal.set-aside-") }, "\(names)")
        again.file?.close()
    }
}
