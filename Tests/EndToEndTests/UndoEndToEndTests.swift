import Foundation
import JarvisCore
import JarvisRemote
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The journal, `jarvis undo` and `jarvis redo` on the real binaries: guarded forward writes
/// that never overwrite a later change, a journal that survives a restart and stays within
/// its byte budget, and a journal file that is never trusted when it is not the agent's own.
@Suite struct UndoEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    let file: URL
    static let original = "{\n  \"alpha\": 1,\n  \"theme\": \"dark\",\n  \"nested\": {\"x\": [1, 2]},\n  \"zeta\": true\n}\n"

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("app.json")
        try Data(Self.original.utf8).write(to: file)
    }

    private var journalFolder: URL { sandbox.journalFolder }
    /// The one journal file the agents of a test keep (they all serve the same folder).
    private var journalFile: URL { sandbox.journalFiles().first ?? journalFolder.appendingPathComponent("missing") }

    private func text() throws -> String { try String(contentsOf: file, encoding: .utf8) }

    private func stop(_ agent: AgentProcess) {
        agent.process.terminate()
        agent.process.waitUntilExit()
    }

    @Test func undoTwiceStepsBackAndRedoPutsBack() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        #expect(try sandbox.jarvis("set", "app.json", "theme", "blue").status == 0)
        let first = try sandbox.jarvis("undo")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try text().contains(#""theme": "light""#))
        let second = try sandbox.jarvis("undo")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try text() == Self.original, "a second undo steps further back, never toggles")
        let none = try sandbox.jarvis("undo")
        #expect(none.status == 1 && none.stderr.contains("nothing to undo"), "\(none.stderr)")
        let redo = try sandbox.jarvis("redo")
        #expect(redo.status == 0, "\(redo.stderr)")
        #expect(try text().contains(#""theme": "light""#), "redo puts back what the last undo took")
        // Each undo and redo is in the audit trail too, naming the entry it took back.
        let audit = try sandbox.jarvis("history", "--audit", "--json")
        let records = try JSONParser.parse(Array(audit.stdout.utf8))["records"]?.arrayValue ?? []
        let undos = records.filter { $0["action"]?.stringValue == "undo" }.compactMap { $0["reverts"]?.int64Value }
        #expect(undos == [2, 1], "\(audit.stdout)")
        #expect(records.last?["action"]?.stringValue == "redo" && records.last?["reverts"]?.int64Value == 4)
        // A container that is gone: said plainly, nothing written.
        try FileManager.default.removeItem(at: file)
        let gone = try sandbox.jarvis("undo")
        #expect(gone.status == 1 && gone.stderr.contains("app.json"), "\(gone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func undoOfDeleteRestoresAJSONFileByteForByte() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        for key in ["theme", "zeta", "alpha"] {
            let removed = try sandbox.jarvis("rm", "app.json", key)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("(jarvis undo)"), "rm says how to undo it: \(removed.stdout)")
        }
        #expect(try text() != Self.original)
        for _ in 0..<3 { #expect(try sandbox.jarvis("undo").status == 0) }
        #expect(try text() == Self.original)
        // Undoing a delete writes only where the key is still absent.
        #expect(try sandbox.jarvis("rm", "app.json", "theme").status == 0)
        #expect(try sandbox.jarvis("set", "app.json", "theme", "green").status == 0)
        let history = try sandbox.jarvis("history", "--json")
        let entries = try JSONParser.parse(Array(history.stdout.utf8))["entries"]?.arrayValue ?? []
        let removal = try #require(entries.last { $0["action"]?.stringValue == "delete" }?["id"]?.int64Value)
        let refused = try sandbox.jarvis("undo", String(removal))
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(try text().contains(#""theme": "green""#))
    }

    @Test func aConflictWritesNothingShowsBothValuesAndExitsNonZero() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        // Another client writes between.
        #expect(try sandbox.jarvis("set", "app.json", "theme", "blue").status == 0)
        let dry = try sandbox.jarvis("undo", "1", "--dry-run")
        #expect(dry.status == 1, "\(dry.stdout) \(dry.stderr)")
        let before = try text()
        let refused = try sandbox.jarvis("undo", "1")
        #expect(refused.status == 1)
        #expect(try text() == before, "nothing written")
        #expect(refused.stderr.contains("\"dark\"") && refused.stderr.contains("\"blue\""), "\(refused.stderr)")
        let revision = try #require(
            refused.stderr.range(of: "--force-at ").map { String(refused.stderr[$0.upperBound...].prefix(16)) })
        let forced = try sandbox.jarvis("undo", "1", "--force-at", revision)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try text() == Self.original)
    }

    @Test func aNestedEditsUndoRestoresThatMemberOnly() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "/nested/x/0", "7").status == 0)
        #expect(try sandbox.jarvis("set", "app.json", "/nested/y", "new").status == 0)
        // A sibling changed since: the undo checks and restores the member it changed only.
        let dry = try sandbox.jarvis("undo", "1", "--dry-run")
        #expect(dry.status == 0, "\(dry.stdout) \(dry.stderr)")
        let undone = try sandbox.jarvis("undo", "1")
        #expect(undone.status == 0, "\(undone.stdout) \(undone.stderr)")
        let value = try sandbox.jarvis("get", "app.json", "nested", "--json")
        #expect(value.stdout.contains(#""x":[1,2]"#) && value.stdout.contains(#""y":"new""#), "\(value.stdout)")
        // The member itself changed since: refused, nothing written, and forced it goes back.
        #expect(try sandbox.jarvis("set", "app.json", "/nested/x/1", "8").status == 0)
        #expect(try sandbox.jarvis("set", "app.json", "/nested/x/1", "9").status == 0)
        let before = try text()
        let refused = try sandbox.jarvis("undo", "4")
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(try text() == before, "nothing written")
        let revision = try #require(
            refused.stderr.range(of: "--force-at ").map { String(refused.stderr[$0.upperBound...].prefix(16)) })
        #expect(try sandbox.jarvis("undo", "4", "--force-at", revision).status == 0)
        let forced = try sandbox.jarvis("get", "app.json", "nested", "--json")
        #expect(forced.stdout.contains(#""x":[1,2]"#) && forced.stdout.contains(#""y":"new""#), "\(forced.stdout)")
    }

    @Test func theJournalSurvivesARestartOfTheAgent() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("rm", "app.json", "theme").status == 0)
        stop(agent)
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        let history = try sandbox.jarvis("history")
        #expect(history.status == 0 && history.stdout.contains("theme"), "\(history.stdout)")
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try text() == Self.original)
        let info = try FileManager.default.attributesOfItem(atPath: journalFile.path)
        #expect((info[.posixPermissions] as? Int) == 0o600, "owner-only")
    }

    @Test func theJournalStaysWithinItsByteBudgetOnDiskAndInMemory() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let client = try JarvisClient(endpoint: agent.unix, clientName: "budget")
        defer { client.close() }
        let address = PreferenceAddress(scanner: "files", container: "app.json", key: "big")
        let budget = 16 << 20
        for round in 0..<200 {
            let letter = Character(UnicodeScalar(UInt8(97 + round % 26)))
            try client.set(address, to: .string(String(repeating: letter, count: 900_000) + "\(round)"))
            let size = (try FileManager.default.attributesOfItem(atPath: journalFile.path)[.size] as? Int) ?? 0
            #expect(size <= budget, "the journal file holds \(size) bytes after change \(round)")
        }
        let page = try client.journal(Wire.JournalParams(limit: 10_000))
        #expect(page.budget == Int64(budget) && page.bytes <= page.budget, "\(page.bytes) bytes in memory")
        #expect(page.entries.count > 1 && page.entries.last?.after?.bytes ?? 0 >= 900_000, "large values are left out")
        // The newest change can still be undone.
        let undone = try client.undo()
        #expect(undone.undone.id == page.entries.last?.id)
    }

    @Test func aDamagedOrLinkedJournalIsSetAsideNeverTrusted() throws {
        let journalFile = try sandbox.journalFile(serving: ["--files", folder.path])
        try Data("{\"jarvisJournal\":1}\nnot json\n".utf8).write(to: journalFile)
        chmod(journalFile.path, 0o600)
        let log = sandbox.root.appendingPathComponent("agent.log")
        var process = try sandbox.startAgent(["--files", folder.path], log: log)
        let history = try sandbox.jarvis("history")
        #expect(history.stderr.contains("set aside") && history.stderr.contains("damaged"), "\(history.stderr)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: journalFolder.path)
        #expect(aside.contains { $0.hasPrefix(journalFile.lastPathComponent + ".set-aside-") }, "\(aside)")
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        #expect(try sandbox.jarvis("undo").status == 0, "a fresh journal works")
        process.terminate()
        process.waitUntilExit()

        // A link: set aside, and what it points to is neither read nor written.
        let target = sandbox.root.appendingPathComponent("elsewhere.journal")
        let planted = "{\"jarvisJournal\":1}\n"
        try Data(planted.utf8).write(to: target)
        try FileManager.default.removeItem(at: journalFile)
        try FileManager.default.createSymbolicLink(at: journalFile, withDestinationURL: target)
        process = try sandbox.startAgent(["--files", folder.path], log: log)
        let linked = try sandbox.jarvis("history")
        #expect(linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(try sandbox.jarvis("set", "app.json", "theme", "blue").status == 0)
        #expect(try String(contentsOf: target, encoding: .utf8) == planted)
        process.terminate()
        process.waitUntilExit()
    }

    @Test func productionRefusesUndo() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        stop(agent)
        _ = try AgentProcess(sandbox, ["--files", folder.path, "--production"])
        let refused = try sandbox.jarvis("undo")
        #expect(refused.status == 1 && refused.stderr.contains("production"), "\(refused.stderr)")
        #expect(try text().contains(#""theme": "light""#))
    }

    @Test func twoClientsUndoingAtOnceOneWinsTheOtherConflicts() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        let clients = try (0..<2).map { try JarvisClient(endpoint: agent.unix, clientName: "racer \($0)") }
        defer { clients.forEach { $0.close() } }
        let outcomes = Locked<[Result<Int64, JarvisError>]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let outcome: Result<Int64, JarvisError>
            do {
                outcome = .success(try clients[index].undo(1).undone.id)
            } catch {
                outcome = .failure(error as? JarvisError ?? JarvisError(.storage, "\(error)"))
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let results = outcomes.current
        let won = results.filter { if case .success = $0 { true } else { false } }
        let lost = results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(won.count == 1 && lost.count == 1, "\(results)")
        #expect(lost.first?.code == .conflict, "\(lost)")
        #expect(try text() == Self.original)
    }

    @Test func aSecretIsRestoredWithoutItsValueReachingAClientAndNotAfterARestart() throws {
        let secrets = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        let original = "s3cr3t-original-value"
        try Data(original.utf8).write(to: secrets.appendingPathComponent("api_token"))
        var agent = try AgentProcess(sandbox, ["--secrets-dir", secrets.path])
        #expect(try sandbox.jarvis("set", "vault", "api_token", "rotated-value-xyz").status == 0)
        let history = try sandbox.jarvis("history", "--json")
        #expect(!history.stdout.contains(original) && !history.stdout.contains("rotated-value-xyz"), "\(history.stdout)")
        let undone = try sandbox.jarvis("undo", "--json")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(!undone.stdout.contains(original) && !undone.stdout.contains("rotated"), "\(undone.stdout)")
        #expect(try String(contentsOf: secrets.appendingPathComponent("api_token"), encoding: .utf8) == original)
        let onDisk = try String(contentsOf: journalFile, encoding: .utf8)
        #expect(!onDisk.contains(original) && !onDisk.contains("rotated-value-xyz"), "never written to the file")

        #expect(try sandbox.jarvis("set", "vault", "api_token", "rotated-again").status == 0)
        stop(agent)
        agent = try AgentProcess(sandbox, ["--secrets-dir", secrets.path])
        let gone = try sandbox.jarvis("undo")
        #expect(gone.status == 1 && gone.stderr.contains("can no longer be restored"), "\(gone.stderr)")
    }

    @Test func anOutsideChangeHeardWhileWatchedIsJournaledAndCanBeUndone() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        let (watch, output) = try sandbox.startJarvis(["watch", "app.json"])
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        // The watch is live once a change of ours reaches it: a set made before it subscribed
        // is never reported, so set again until one is (never a wait for a moment).
        let heard = LineCollector(output.fileHandleForReading)
        var round = 2
        let live = Date().addingTimeInterval(60)
        while !heard.text.contains("alpha"), Date() < live {
            #expect(try sandbox.jarvis("set", "app.json", "alpha", String(round)).status == 0)
            round += 1
            let wait = Date().addingTimeInterval(1)
            while !heard.text.contains("alpha"), Date() < wait { usleep(20_000) }
        }
        try #require(heard.text.contains("alpha"), "the watch never reported a change")
        // Another program rewrites the file.
        let outside = Self.original.replacingOccurrences(of: "\"dark\"", with: "\"neon\"")
            .replacingOccurrences(of: "\"alpha\": 1", with: "\"alpha\": \(round - 1)")
        try Data(outside.utf8).write(to: file)
        var entry: JSONValue?
        let deadline = Date().addingTimeInterval(20)
        while entry == nil, Date() < deadline {
            let history = try sandbox.jarvis("history", "--json")
            let entries = (try? JSONParser.parse(Array(history.stdout.utf8)))?["entries"]?.arrayValue ?? []
            entry = entries.last { $0["action"]?.stringValue == "outside" }
        }
        let found = try #require(entry, "the outside change reaches the journal")
        #expect(found["key"]?.stringValue == "theme" && found["transport"] == nil, "\(found)")
        #expect(found["after"]?["value"]?.stringValue == "neon")
        let text = try sandbox.jarvis("history")
        #expect(text.stdout.contains("outside"), "\(text.stdout)")
        let id = try #require(found["id"]?.int64Value)
        let undone = try sandbox.jarvis("undo", String(id))
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try self.text().contains(#""theme": "dark""#))
        #expect(try self.text().contains("\"alpha\": \(round - 1)"), "only that key is taken back")
    }

    /// Makes `file` impossible to replace, even for root (CI runs as root, whom a mode does not
    /// stop): immutable with `chattr +i` as root, else a read-only file in a read-only folder.
    /// Returns what undoes it.
    private func freeze(_ file: URL) throws -> () -> Void {
        if getuid() == 0 {
            let chattr = Process()
            chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            chattr.arguments = ["+i", file.path]
            try chattr.run()
            chattr.waitUntilExit()
            try #require(chattr.terminationStatus == 0, "chattr +i must work here")
            return {
                let undo = Process()
                undo.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
                undo.arguments = ["-i", file.path]
                try? undo.run()
                undo.waitUntilExit()
            }
        }
        chmod(file.path, 0o444)
        chmod(file.deletingLastPathComponent().path, 0o555)
        return {
            chmod(file.deletingLastPathComponent().path, 0o755)
            chmod(file.path, 0o644)
        }
    }

    @Test func anUndoTheStorageCannotTakeSaysSoWritesNothingAndStaysUndoable() throws {
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        let changed = try text()
        let thaw = try freeze(file)
        defer { thaw() }
        let refused = try sandbox.jarvis("undo")
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("app.json") && refused.stderr.lowercased().contains("permi"), "\(refused.stderr)")
        #expect(try text() == changed, "nothing written")
        // The entry stands: neither marked undone nor followed by an undo entry.
        let history = try sandbox.jarvis("history", "--json")
        let entries = try JSONParser.parse(Array(history.stdout.utf8))["entries"]?.arrayValue ?? []
        #expect(entries.count == 1 && entries.first?["undoable"] == .bool(true), "\(history.stdout)")
        // Once the storage takes writes again, the same undo goes through.
        thaw()
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try text() == Self.original)
    }

    @Test func anOutsideChangeNobodyWatchedIsHeardAtTheNextReadEvenAcrossARestart() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        // The agent stops; another program changes the key meanwhile; the agent starts again.
        stop(agent)
        try Data(Self.original.replacingOccurrences(of: "\"dark\"", with: "\"neon\"").utf8).write(to: file)
        _ = try AgentProcess(sandbox, ["--files", folder.path])
        // Nobody watches. The next read hears it.
        #expect(try sandbox.jarvis("get", "app.json", "theme").stdout.contains("neon"))
        let history = try sandbox.jarvis("history", "--json")
        let entries = try JSONParser.parse(Array(history.stdout.utf8))["entries"]?.arrayValue ?? []
        #expect(entries.map { $0["action"]?.stringValue } == ["set", "outside"], "\(history.stdout)")
        let outside = try #require(entries.last)
        #expect(outside["before"]?["value"]?.stringValue == "light" && outside["after"]?["value"]?.stringValue == "neon")
        #expect(outside["undoable"] == .bool(true))
        // A plain undo takes back a change made through Jarvis, never the program's own: here
        // the set, which the outside change came after (a conflict, nothing written).
        let plain = try sandbox.jarvis("undo", "--dry-run", "--json")
        #expect(try JSONParser.parse(Array(plain.stdout.utf8))["undone"]?["action"]?.stringValue == "set", "\(plain.stdout)")
        // By its id, the outside change goes back to what the agent had set.
        let id = try #require(outside["id"]?.int64Value)
        let undone = try sandbox.jarvis("undo", String(id))
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try text().contains(#""theme": "light""#))
        // Reading again hears nothing new.
        _ = try sandbox.jarvis("ls", "app.json")
        let again = try sandbox.jarvis("history", "--json")
        #expect((try JSONParser.parse(Array(again.stdout.utf8))["entries"]?.arrayValue ?? []).count == 3, "\(again.stdout)")
    }
}
