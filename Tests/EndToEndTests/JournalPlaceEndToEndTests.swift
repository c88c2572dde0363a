import Foundation
import JarvisCore
import JarvisRemote
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A journal belongs to the places it records, on the real `jarvis-agent` and `jarvis`: two
/// projects served under one agent name share nothing, the same project restarted (with other
/// hide rules too) finds its own history, plain `undo` takes back a change made through Jarvis
/// and never the program's own write, and a journal file swapped or crafted while or before
/// the agent runs is never written through and never stops the agent.
@Suite struct JournalPlaceEndToEndTests {
    let sandbox: Sandbox
    let projectA: URL
    let projectB: URL

    init() throws {
        sandbox = try Sandbox()
        projectA = sandbox.root.appendingPathComponent("projA")
        projectB = sandbox.root.appendingPathComponent("projB")
        for (folder, debug) in [(projectA, "false"), (projectB, "true")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{\n  \"debug\": \(debug),\n  \"level\": 1\n}\n".utf8).write(
                to: folder.appendingPathComponent("config.json"))
        }
    }

    private func config(_ folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("config.json"), encoding: .utf8)
    }

    private func stop(_ agent: AgentProcess) {
        agent.process.terminate()
        agent.process.waitUntilExit()
    }

    private func entries(_ result: CommandResult) throws -> [JSONValue] {
        try JSONParser.parse(Array(result.stdout.utf8))["entries"]?.arrayValue ?? []
    }

    /// The issue's steps: A's change, then B served by an agent of the same name. B's history,
    /// undo and restore never see A's entry and never write B's file; A restarted (with other
    /// hide rules) finds and undoes its own.
    @Test func anotherProjectUnderTheSameNameSharesNothing() throws {
        var agent = try AgentProcess(sandbox, ["--files", projectA.path])
        #expect(try sandbox.jarvis("set", "files:config.json", "debug", "true").status == 0)
        stop(agent)

        let before = try config(projectB)
        agent = try AgentProcess(sandbox, ["--files", projectB.path])
        let history = try sandbox.jarvis("history", "--json")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(try entries(history).isEmpty, "B's history holds nothing of A's: \(history.stdout)")
        _ = try sandbox.jarvis("ls", "files:config.json")
        let undo = try sandbox.jarvis("undo")
        #expect(undo.status == 1 && undo.stderr.contains("nothing to undo"), "\(undo.stdout) \(undo.stderr)")
        let byID = try sandbox.jarvis("undo", "1")
        #expect(byID.status == 1, "\(byID.stdout)")
        let restore = try sandbox.jarvis("restore", "--to", "1")
        #expect(restore.status != 0, "\(restore.stdout)")
        #expect(try config(projectB) == before, "B's file is untouched")
        #expect(try entries(try sandbox.jarvis("history", "--json")).isEmpty, "B's reads recorded nothing as A's")
        stop(agent)

        // A again, with a hide rule it did not have: the same journal, and its entry undoes.
        agent = try AgentProcess(sandbox, ["--files", projectA.path, "--hide-key", "secret_*"])
        let again = try entries(try sandbox.jarvis("history", "--json"))
        #expect(again.map { $0["key"]?.stringValue } == ["debug"], "\(again)")
        #expect(again.first?["undoable"] == .bool(true))
        #expect(again.first?["place"]?.stringValue?.hasSuffix("projA/config.json") == true, "\(again)")
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try config(projectA).contains("\"debug\": false"))
        #expect(try config(projectB) == before)
        stop(agent)
    }

    /// Two agents of one name serving different folders at once each keep a journal file of
    /// their own (neither falls back to memory for the other's lock).
    @Test func twoAgentsOfOneNameAtOnceKeepTwoFiles() throws {
        let first = try AgentProcess(sandbox, ["--files", projectA.path])
        let second = try AgentProcess(sandbox, ["--files", projectB.path])
        for agent in [first, second] {
            let set = try sandbox.jarvis("set", "files:config.json", "level", "2", "--agent", String(agent.pid))
            #expect(set.status == 0, "\(set.stderr)")
            let history = try sandbox.jarvis("history", "--agent", String(agent.pid))
            #expect(!history.stderr.contains("memory only"), "\(history.stderr)")
        }
        let files = sandbox.journalFiles()
        #expect(files.count == 2, "\(files)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.components(separatedBy: "\"key\":\"level\"").count == 2, "one entry each: \(text)")
        }
        stop(first)
        stop(second)
    }

    /// A program writing by itself every 300 ms while a person sets a key and undoes: plain
    /// `undo` takes back the person's change, never the program's; `--key` and a container
    /// narrow it; an outside change is still undone by its id.
    @Test func plainUndoTakesBackYourChangeNotTheProgramsWrite() throws {
        let ticks = projectA.appendingPathComponent("tick.json")
        try Data("{\"tick\": 0}\n".utf8).write(to: ticks)
        let agent = try AgentProcess(sandbox, ["--files", projectA.path])
        #expect(try sandbox.jarvis("set", "files:tick.json", "tick", "1").status == 0)
        #expect(try sandbox.jarvis("set", "files:config.json", "level", "7").status == 0)
        // The program writes its tick every 300 ms from now on, the way a host writes its own state.
        let running = Locked(true)
        let writer = Thread {
            var tick = 100
            while running.current {
                tick += 1
                try? Data("{\"tick\": \(tick)}\n".utf8).write(to: ticks, options: .atomic)
                usleep(300_000)
            }
        }
        writer.start()
        defer { running.withLock { $0 = false } }
        // Read the tick until the journal records the program's write as an outside change.
        var outside: JSONValue?
        let deadline = Date().addingTimeInterval(30)
        while outside == nil, Date() < deadline {
            _ = try sandbox.jarvis("get", "files:tick.json", "tick")
            outside = try entries(try sandbox.jarvis("history", "--json")).last { $0["action"]?.stringValue == "outside" }
        }
        try #require(outside != nil, "the program's write reached the journal")
        let dry = try sandbox.jarvis("undo", "--dry-run", "--json")
        #expect(dry.status == 0, "\(dry.stderr)")
        let picked = try JSONParser.parse(Array(dry.stdout.utf8))["undone"]
        #expect(picked?["key"]?.stringValue == "level", "plain undo picks your change: \(dry.stdout)")
        // Narrowed to a key, then to a container.
        let tickOnly = try sandbox.jarvis("undo", "--dry-run", "--json", "--key", "tick")
        #expect(try JSONParser.parse(Array(tickOnly.stdout.utf8))["undone"]?["action"]?.stringValue == "set")
        let container = try sandbox.jarvis("undo", "--dry-run", "--json", "files:tick.json")
        #expect(try JSONParser.parse(Array(container.stdout.utf8))["undone"]?["key"]?.stringValue == "tick")
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try config(projectA).contains("\"level\": 1"), "your change is taken back")
        running.withLock { $0 = false }
        stop(agent)
    }

    /// The journal file swapped for a link, then loosened, while the agent runs: the next write
    /// sets it aside, the link's target keeps its bytes and mode, the faces show the problem,
    /// and undo goes on from memory.
    @Test func aJournalSwappedWhileTheAgentRunsIsNeverWrittenThrough() throws {
        let agent = try AgentProcess(sandbox, ["--files", projectA.path])
        #expect(try sandbox.jarvis("set", "files:config.json", "level", "2").status == 0)
        let journal = try #require(sandbox.journalFiles().first)
        let victim = sandbox.root.appendingPathComponent("victim.txt")
        try Data("keep me\n".utf8).write(to: victim)
        chmod(victim.path, 0o644)
        try FileManager.default.removeItem(at: journal)
        try FileManager.default.createSymbolicLink(at: journal, withDestinationURL: victim)
        #expect(try sandbox.jarvis("set", "files:config.json", "level", "3").status == 0)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        var info = stat()
        #expect(stat(victim.path, &info) == 0 && info.st_mode & 0o777 == 0o644)
        let history = try sandbox.jarvis("history")
        #expect(history.stderr.contains("symbolic link") && history.stderr.contains("memory only"), "\(history.stderr)")
        #expect(history.stdout.contains("level"), "\(history.stdout)")
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try config(projectA).contains("\"level\": 2"))
        stop(agent)
    }

    /// A journal whose ids sit at `Int64.max` (crafted): the agent starts, writes and undoes,
    /// and says the ids were numbered again.
    @Test(arguments: ["9223372036854775807", "9223372036854775806"])
    func idsAtTheEndOfInt64NeverStopTheAgent(_ id: String) throws {
        let arguments = ["--files", projectA.path]
        let file = try sandbox.journalFile(serving: arguments)
        let header = try String(contentsOf: file, encoding: .utf8)
        let line =
            #"{"id":\#(id),"time":"2026-01-01T00:00:00Z","action":"set","scanner":"files","container":"config.json","key":"level","before":{"type":"integer","value":0},"after":{"type":"integer","value":1}}"#
        try Data((header + line + "\n").utf8).write(to: file)
        let agent = try AgentProcess(sandbox, arguments)
        #expect(try sandbox.jarvis("set", "files:config.json", "level", "5").status == 0)
        let history = try sandbox.jarvis("history", "--json")
        #expect(history.stderr.contains("numbered again") || history.stdout.contains("numbered again"), "\(history.stderr)")
        #expect(try entries(history).map { $0["id"]?.int64Value } == [1, 2], "\(history.stdout)")
        #expect(agent.isAlive)
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try config(projectA).contains("\"level\": 1"))
        stop(agent)
    }
}
