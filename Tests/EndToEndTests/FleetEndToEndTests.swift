import Foundation
import JarvisCore
import JarvisRemote
import JarvisTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--agents` on real `jarvis-agent` processes (issue 36): only the agents named are reached,
/// all at once, each within a bound; one result per agent; every write guarded on each agent.
@Suite(.serialized) struct FleetEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    /// Starts an agent named `name` serving its own folder, whose `app.json` holds `port`.
    @discardableResult
    func agent(_ name: String, port: Int = 8080, _ extra: [String] = [], folder key: String? = nil) throws -> AgentProcess {
        let folder = files(key ?? name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"port": \#(port)}"#.utf8).write(to: folder.appendingPathComponent("app.json"))
        return try AgentProcess(sandbox, ["--files", folder.path, "--name", name] + extra)
    }

    func files(_ name: String) -> URL { sandbox.root.appendingPathComponent("files-\(name)") }

    /// The port stored in an agent's file, read from the disk (not through any agent).
    func port(_ name: String) throws -> JSONValue? {
        try JSONParser.parse(Data(contentsOf: files(name).appendingPathComponent("app.json")))["port"]
    }

    func jarvis(_ arguments: String..., limit: TimeInterval = 60) throws -> CommandResult {
        try sandbox.run(Binaries.url("jarvis"), arguments, limit: limit)
    }

    /// Writes a discovery record (owner-only, as agents do) naming `agent`'s process under
    /// another name, served at `socket` (a relay in front of it).
    func publish(_ agent: AgentProcess, as name: String, at socket: String) throws {
        var record = agent.record
        record.name = name
        record.socket = socket
        let file = sandbox.runtime.appendingPathComponent("\(name).json").path
        try Data(JSONWriter.bytes(record.json)).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
    }

    /// The table's line for `agent` (the first cell is exactly it).
    func line(_ output: String, _ agent: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.split(separator: " ").first.map(String.init) == agent }
    }

    @Test func aWriteReachesOnlyTheAgentsNamedAndEachHasItsLine() throws {
        for name in ["dev-a", "dev-b", "dev-c"] { try agent(name) }
        // Without --agents nothing fans out: several agents run, so one must be chosen.
        let plain = try jarvis("set", "app.json", "port", "9090")
        #expect(plain.status == 1 && plain.stderr.contains("several agents are running"), "\(plain.stderr)")
        let set = try jarvis("set", "app.json", "port", "9090", "--agents", "dev-a,dev-c")
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
        #expect(line(set.stdout, "dev-a")?.contains("changed") == true && line(set.stdout, "dev-a")?.contains("8080 → 9090") == true)
        #expect(line(set.stdout, "dev-c")?.contains("changed") == true)
        #expect(line(set.stdout, "dev-b") == nil)
        #expect(set.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(try port("dev-a") == .integer(9090) && port("dev-c") == .integer(9090))
        #expect(try port("dev-b") == .integer(8080))

        let get = try jarvis("get", "app.json", "port", "--agents", "dev-*", "--json")
        #expect(get.status == 0)
        let agents = try #require(JSONParser.parse(Data(get.stdout.utf8))["agents"]?.arrayValue)
        #expect(agents.map { $0["agent"]?.stringValue ?? "" } == ["dev-a", "dev-b", "dev-c"])
        #expect(agents.map { $0["value"]?.stringValue ?? "" } == ["9090", "8080", "9090"])
        #expect(agents.allSatisfy { $0["identity"]?.stringValue?.hasPrefix("jarvis-agent/dev-") == true })
    }

    @Test func aDryRunShowsEachAgentsCurrentAndNewValueAndWritesNothing() throws {
        try agent("dry-a", port: 1)
        try agent("dry-b", port: 2)
        let set = try jarvis("set", "app.json", "port", "3", "--agents", "all", "--dry-run")
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
        #expect(line(set.stdout, "dry-a")?.contains("would change  1 → 3") == true, "\(set.stdout)")
        #expect(line(set.stdout, "dry-b")?.contains("would change  2 → 3") == true)
        let remove = try jarvis("rm", "app.json", "port", "--agents", "all", "--dry-run")
        #expect(remove.status == 0 && line(remove.stdout, "dry-a")?.contains("1 → (removed)") == true, "\(remove.stdout)")
        #expect(try port("dry-a") == .integer(1) && port("dry-b") == .integer(2))
    }

    @Test func aStoppedAgentIsReportedAndHoldsUpNobodyPastTheBound() throws {
        try agent("live-a")
        let stopped = try agent("stuck")
        try agent("live-b")
        kill(stopped.pid, SIGSTOP)
        defer { kill(stopped.pid, SIGCONT) }
        let started = Date()
        let set = try jarvis("set", "app.json", "port", "7070", "--agents", "all", "--agents-timeout", "2", limit: 30)
        let took = Date().timeIntervalSince(started)
        #expect(set.status == 1, "\(set.stdout)\(set.stderr)")
        #expect(line(set.stdout, "stuck")?.contains("no answer") == true, "\(set.stdout)")
        #expect(line(set.stdout, "live-a")?.contains("changed") == true && line(set.stdout, "live-b")?.contains("changed") == true)
        // The bound, plus starting the CLI on a loaded machine; the old CLI waited 10 s per call.
        #expect(took < 8, "took \(took) s")
        #expect(try port("live-a") == .integer(7070) && port("live-b") == .integer(7070))
        // Once it runs again, the stopped agent answers and was never written: its hello had
        // no answer, so no write was ever sent to it.
        kill(stopped.pid, SIGCONT)
        #expect(stopped.answersANewClient())
        #expect(try port("stuck") == .integer(8080))
    }

    @Test func agentsThatRefuseOrAnswerAnErrorAreNamedAndTheOthersAreWritten() throws {
        try agent("writable")
        try agent("prod", ["--production"])
        try agent("readonly", ["--read-only"])
        let empty = sandbox.root.appendingPathComponent("files-empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = try AgentProcess(sandbox, ["--files", empty.path, "--name", "empty"])
        let set = try jarvis("set", "app.json", "port", "9091", "--agents", "all")
        #expect(set.status == 1, "\(set.stdout)\(set.stderr)")
        #expect(line(set.stdout, "writable")?.contains("changed") == true, "\(set.stdout)")
        #expect(line(set.stdout, "prod")?.contains("refused") == true && line(set.stdout, "prod")?.contains("production") == true)
        #expect(line(set.stdout, "readonly")?.contains("refused") == true)
        let failed = try #require(line(set.stdout, "empty"))
        #expect(!failed.contains("changed") && !failed.contains("ok"), "\(failed)")
        #expect(try port("writable") == .integer(9091))
        #expect(try port("prod") == .integer(8080) && port("readonly") == .integer(8080))
        let get = try jarvis("get", "app.json", "port", "--agents", "all")
        #expect(get.status == 1 && line(get.stdout, "empty")?.contains("not found") == true, "\(get.stdout)")
        let prod = line(get.stdout, "prod")?.split(separator: " ")
        #expect(prod == ["prod", "ok", "8080"], "\(get.stdout)")
    }

    @Test func twoAgentsOfOneNameAreBothReachedAndShownApart() throws {
        let first = try agent("twin", port: 1, folder: "twin-1")
        let second = try agent("twin", port: 2, folder: "twin-2")
        let get = try jarvis("get", "app.json", "port", "--agents", "twin")
        #expect(get.status == 0, "\(get.stdout)\(get.stderr)")
        #expect(line(get.stdout, "twin[\(first.pid)]")?.contains("1") == true, "\(get.stdout)")
        #expect(line(get.stdout, "twin[\(second.pid)]")?.contains("2") == true)
        let listed = try jarvis("agents")
        #expect(listed.stdout.split(separator: "\n").filter { $0.contains("jarvis-agent/twin") }.count == 2)
    }

    /// Fifty agents, as on a CI machine running many simulators: every one answers and is
    /// written, each on its own connection at once, within the command's bound.
    @Test func manyAgentsAnswerTogether() throws {
        let count = 50
        for index in 0..<count { try agent("many-\(index)", port: index) }
        let set = try jarvis("set", "app.json", "port", "5000", "--agents", "many-*", "--json", limit: 60)
        #expect(set.status == 0, "\(set.stderr)")
        let agents = try #require(JSONParser.parse(Data(set.stdout.utf8))["agents"]?.arrayValue)
        #expect(agents.count == count)
        #expect(agents.allSatisfy { $0["status"] == .string("changed") })
        for index in 0..<count { #expect(try port("many-\(index)") == .integer(5000)) }
    }

    @Test func anAgentListThatChangesDuringAFanOutTouchesOnlyTheAgentsNamedAtItsStart() throws {
        try agent("m-live")
        let stopped = try agent("m-stuck")
        kill(stopped.pid, SIGSTOP)
        defer { kill(stopped.pid, SIGCONT) }
        let (process, output) = try sandbox.startJarvis(["set", "app.json", "port", "6060", "--agents", "m-*", "--agents-timeout", "4"])
        // The fan-out is under way: the live agent is written while the stopped one holds the
        // command; an agent that starts now, matching the pattern, must not be written.
        #expect(eventually(timeout: .seconds(20)) { (try? port("m-live")) == .integer(6060) })
        #expect(process.isRunning)
        try agent("m-new")
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(line(text, "m-live")?.contains("changed") == true && line(text, "m-stuck")?.contains("no answer") == true, "\(text)")
        #expect(line(text, "m-new") == nil)
        #expect(try port("m-new") == .integer(8080))
    }

    @Test func aKeyChangedOnOneAgentBetweenReadAndWriteIsAConflictThereAndNotOverwritten() throws {
        let racer = try agent("racer")
        try agent("calm")
        let socket = try #require(racer.record.socket)
        // A relay in front of `racer` lets another writer change the key just before it passes
        // the fan-out's guarded set on; it is published as an agent named `relayed`.
        let relay = try RaceProxy(path: sandbox.root.appendingPathComponent("relay.sock").path, agentSocket: socket) {
            let other = try? JarvisClient(endpoint: .unix(path: socket), clientName: "other", timeout: .seconds(20))
            _ = try? other?.set(Wire.Place(container: "app.json", key: "port"), to: .integer(1111))
            other?.close()
        }
        try publish(racer, as: "relayed", at: relay.path)
        let set = try jarvis("set", "app.json", "port", "9999", "--agents", "relayed,calm")
        #expect(set.status == 1, "\(set.stdout)\(set.stderr)")
        #expect(line(set.stdout, "relayed")?.contains("conflict") == true, "\(set.stdout)")
        #expect(line(set.stdout, "calm")?.contains("changed") == true)
        #expect(try port("racer") == .integer(1111))
        #expect(try port("calm") == .integer(9999))
        withExtendedLifetime(relay) {}
    }

    @Test func anAgentThatHangsBetweenReadAndWriteIsNoAnswerAndHoldsUpNobody() throws {
        let hanging = try agent("hangs")
        try agent("steady")
        let socket = try #require(hanging.record.socket)
        // The agent answers hello and the read, then stops just before the write reaches it.
        let pid = hanging.pid
        let relay = try RaceProxy(path: sandbox.root.appendingPathComponent("hang.sock").path, agentSocket: socket) {
            kill(pid, SIGSTOP)
        }
        defer { kill(pid, SIGCONT) }
        try publish(hanging, as: "relayed", at: relay.path)
        let started = Date()
        let set = try jarvis(
            "set", "app.json", "port", "4242", "--agents", "relayed,steady", "--agents-timeout", "2", "--json")
        let took = Date().timeIntervalSince(started)
        #expect(set.status == 1, "\(set.stdout)\(set.stderr)")
        let agents = try #require(JSONParser.parse(Data(set.stdout.utf8))["agents"]?.arrayValue)
        #expect(agents.map { $0["status"]?.stringValue ?? "" } == ["no answer", "changed"], "\(set.stdout)")
        // The write had been sent when the agent stopped: the reason says it may still apply.
        #expect(agents.first?["reason"]?.stringValue?.contains("a write already sent to it may still apply") == true)
        #expect(took < 8, "took \(took) s")
        #expect(try port("steady") == .integer(4242))
        kill(pid, SIGCONT)
        #expect(hanging.answersANewClient())
        withExtendedLifetime(relay) {}
    }

    @Test func theLeftoverOfARelaunchedAgentIsListedOnce() throws {
        let before = try agent("App")
        let socket = try #require(before.record.socket)
        kill(before.pid, SIGKILL)
        before.process.waitUntilExit()
        // Its record and socket stay behind; its pid now belongs to another process (here a
        // child of this test that runs on), so the record looks alive.
        let squatter = Process()
        squatter.executableURL = URL(fileURLWithPath: "/bin/sleep")
        squatter.arguments = ["60"]
        try squatter.run()
        defer { squatter.terminate() }
        var stale = before.record
        stale.pid = squatter.processIdentifier
        let staleFile = sandbox.runtime.appendingPathComponent("\(before.pid).json").path
        try Data(JSONWriter.bytes(stale.json)).write(to: URL(fileURLWithPath: staleFile))
        chmod(staleFile, 0o600)
        #expect(FileManager.default.fileExists(atPath: socket))
        let after = try agent("App")
        let listed = try jarvis("agents", "--json")
        let records = try #require(JSONParser.parse(Data(listed.stdout.utf8)).arrayValue)
        #expect(records.map { $0["pid"]?.int64Value } == [Int64(after.pid)], "\(listed.stdout)")
        #expect(records.first?["identity"] == .string("jarvis-agent/App"))
        #expect(!FileManager.default.fileExists(atPath: staleFile) && !FileManager.default.fileExists(atPath: socket))
        let get = try jarvis("get", "app.json", "port", "--agents", "jarvis-agent/App")
        #expect(get.status == 0 && get.stdout.split(separator: "\n").count == 2, "\(get.stdout)")
    }

    @Test func undoImportExportAndListFanOutToo() throws {
        try agent("u-a", port: 1)
        try agent("u-b", port: 2)
        #expect(try jarvis("set", "app.json", "port", "3", "--agents", "all").status == 0)
        let undo = try jarvis("undo", "--agents", "all")
        #expect(undo.status == 0 && line(undo.stdout, "u-a")?.contains("changed") == true, "\(undo.stdout)\(undo.stderr)")
        #expect(try port("u-a") == .integer(1) && port("u-b") == .integer(2))
        let withID = try jarvis("undo", "4", "--agents", "all")
        #expect(withID.status == 64 && withID.stderr.contains("belong to one agent"))

        let folder = sandbox.root.appendingPathComponent("snapshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let export = try jarvis("export", "--agents", "all", "--output", folder.path)
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        let snapshot = folder.appendingPathComponent("jarvis-agent_u-a.json")
        #expect(FileManager.default.fileExists(atPath: snapshot.path))
        let imported = try jarvis("import", snapshot.path, "--agents", "all")
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(line(imported.stdout, "u-b")?.contains("1 changed") == true, "\(imported.stdout)")
        #expect(try port("u-b") == .integer(1))

        let list = try jarvis("ls", "--agents", "all")
        #expect(list.status == 0)
        #expect(list.stdout.contains("u-a  files:app.json  port  1") && list.stdout.contains("u-b  files:app.json  port  1"), "\(list.stdout)")
    }

    /// One agent's part of a fan-out of several keys (a bulk delete, an import) is one change
    /// there: one `jarvis undo --agents` takes each agent's part back whole (issue 43 item 3).
    @Test func eachAgentsPartOfAFanOutIsOneUndo() throws {
        let original = "{\n  \"port\": 1,\n  \"x\": 1,\n  \"y\": 1\n}\n"
        for name in ["g-a", "g-b"] {
            try FileManager.default.createDirectory(at: files(name), withIntermediateDirectories: true)
            try Data(original.utf8).write(to: files(name).appendingPathComponent("app.json"))
            _ = try AgentProcess(sandbox, ["--files", files(name).path, "--name", name])
        }
        func text(_ name: String) throws -> String {
            try String(contentsOf: files(name).appendingPathComponent("app.json"), encoding: .utf8)
        }
        let removed = try jarvis("rm", "app.json", "--match", "*", "--agents", "all")
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect(try port("g-a") == nil && port("g-b") == nil)
        let undone = try jarvis("undo", "--agents", "all")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try text("g-a") == original && text("g-b") == original, "\(undone.stdout)")

        let folder = sandbox.root.appendingPathComponent("group-snapshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try jarvis("export", "--agents", "all", "--output", folder.path).status == 0)
        for key in ["port", "x", "y"] {
            #expect(try jarvis("set", "app.json", key, "2", "--agents", "all").status == 0)
        }
        let imported = try jarvis("import", folder.appendingPathComponent("jarvis-agent_g-a.json").path, "--agents", "all")
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(try port("g-b") == .integer(1))
        #expect(try jarvis("undo", "--agents", "all").status == 0)
        for name in ["g-a", "g-b"] {
            let values = try JSONParser.parse(Data(text(name).utf8))
            #expect(["port", "x", "y"].map { values[$0]?.int64Value } == [2, 2, 2], "\(name): one undo took the import back")
        }
    }

    /// A fan-out writes only what a single write would: a key absent on an agent is created
    /// there only with `--create`; without it that agent says `absent, not created` and its
    /// file is left as it was (issue 43 item 11).
    @Test func aFanOutCreatesAnAbsentKeyOnlyWithCreate() throws {
        try agent("c-a")
        try agent("c-b")
        #expect(try jarvis("set", "files:app.json", "theme", "light", "--agent", "c-a").status == 0)
        let before = try Data(contentsOf: files("c-b").appendingPathComponent("app.json"))

        let dry = try jarvis("set", "app.json", "theme", "dark", "--agents", "all", "--dry-run")
        #expect(line(dry.stdout, "c-b")?.contains("not found") == true, "\(dry.stdout)\(dry.stderr)")
        let plain = try jarvis("set", "app.json", "theme", "dark", "--agents", "all")
        #expect(plain.status == 1, "\(plain.stdout)\(plain.stderr)")
        #expect(line(plain.stdout, "c-a")?.contains("changed") == true, "\(plain.stdout)")
        let refused = try #require(line(plain.stdout, "c-b"), "\(plain.stdout)")
        #expect(refused.contains("not found") && refused.contains("absent, not created"), "\(refused)")
        #expect(try Data(contentsOf: files("c-b").appendingPathComponent("app.json")) == before)

        let created = try jarvis("set", "app.json", "theme", "dark", "--agents", "all", "--create")
        #expect(created.status == 0, "\(created.stdout)\(created.stderr)")
        #expect(line(created.stdout, "c-b")?.contains("(absent) → dark") == true, "\(created.stdout)")
        let written = try JSONParser.parse(Data(contentsOf: files("c-b").appendingPathComponent("app.json")))
        #expect(written["theme"] == .string("dark"))
        let single = try jarvis("set", "app.json", "mode", "x", "--agent", "c-a", "--create")
        #expect(single.status == 64 && single.stderr.contains("--create goes with --agents"), "\(single.stderr)")
    }

    /// Each agent's entry of a fan-out carries the fan-out's id, and `undo --agents` takes back
    /// only the entries of the newest fan-out: a single write made since on one agent stays,
    /// and an agent the newest fan-out did not reach is not written (issue 43 item 11).
    @Test func undoAcrossAgentsTakesBackOnlyTheNewestFanOut() throws {
        try agent("f-a", port: 1)
        try agent("f-b", port: 1)
        #expect(try jarvis("set", "app.json", "port", "2", "--agents", "all").status == 0)
        func entries(_ name: String) throws -> [JSONValue] {
            let history = try jarvis("history", "--agent", name, "--json")
            return try JSONParser.parse(Data(history.stdout.utf8))["entries"]?.arrayValue ?? []
        }
        let changes = try ["f-a", "f-b"].map { name in try entries(name).last?["change"]?.stringValue }
        #expect(changes[0]?.hasPrefix("fanout-") == true && changes[0] == changes[1], "\(changes)")
        // A single write on one agent after the fan-out: not the fan-out's, so not undone.
        #expect(try jarvis("set", "files:app.json", "other", "7", "--agent", "f-b").status == 0)

        let undone = try jarvis("undo", "--agents", "all")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try port("f-a") == .integer(1) && port("f-b") == .integer(1), "\(undone.stdout)")
        let kept = try JSONParser.parse(Data(contentsOf: files("f-b").appendingPathComponent("app.json")))
        #expect(kept["other"] == .integer(7), "the single write on f-b was taken back: \(undone.stdout)")

        // The newest fan-out reached f-a only: f-b is not written.
        #expect(try jarvis("set", "app.json", "port", "3", "--agents", "f-a").status == 0)
        let second = try jarvis("undo", "--agents", "all")
        #expect(line(second.stdout, "f-a")?.contains("changed") == true, "\(second.stdout)\(second.stderr)")
        #expect(line(second.stdout, "f-b")?.contains("not found") == true, "\(second.stdout)")
        #expect(try port("f-a") == .integer(1))
        let still = try JSONParser.parse(Data(contentsOf: files("f-b").appendingPathComponent("app.json")))
        #expect(still["other"] == .integer(7) && still["port"] == .integer(1))
    }

    @Test func watchFollowsEveryAgentNamedEachLineNamingItsAgent() throws {
        try agent("w-a", port: 1)
        try agent("w-b", port: 2)
        try agent("w-other", port: 3)
        let (watch, output) = try sandbox.startJarvis(["watch", "app.json", "--agents", "w-a,w-b", "--json"])
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        let heard = Locked(Data())
        let handle = output.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                heard.withLock { $0 += chunk }
            }
        }
        var lines: [JSONValue] {
            String(decoding: heard.current, as: UTF8.self).split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        }
        // The subscriptions are live once a change of ours reaches the watch: write until both
        // agents' changes are heard (a write before the subscription is simply not heard).
        var value = 10
        let both = eventually(timeout: .seconds(30)) {
            value += 1
            _ = try? jarvis("set", "app.json", "port", String(value), "--agents", "w-*")
            let agents = Set(lines.compactMap { $0["agent"]?.stringValue })
            return agents.isSuperset(of: ["w-a", "w-b"])
        }
        #expect(both, "\(String(decoding: heard.current, as: UTF8.self))")
        #expect(!lines.contains { $0["agent"]?.stringValue == "w-other" })
        #expect(lines.allSatisfy { $0["key"]?.stringValue == "port" })
    }

    @Test func fanOutIsAskedForByNameAndRefusedWhereItHasNoMeaning() throws {
        try agent("solo")
        let mcp = try jarvis("mcp", "--agents", "all", limit: 20)
        #expect(mcp.status == 64 && mcp.stderr.contains("one agent per server"), "\(mcp.stderr)")
        sandbox.environmentOverrides["JARVIS_AGENTS"] = "all"
        let mcpFromEnvironment = try jarvis("mcp", limit: 20)
        #expect(mcpFromEnvironment.status == 64 && mcpFromEnvironment.stderr.contains("JARVIS_AGENTS"))
        // The variable asks for a fan-out as the option does: one result per agent.
        let get = try jarvis("get", "app.json", "port")
        #expect(get.status == 0 && line(get.stdout, "solo")?.contains("ok") == true, "\(get.stdout)")
        sandbox.environmentOverrides["JARVIS_AGENTS"] = nil
        let diff = try jarvis("diff", "agent:solo", "agent:solo", "--agents", "all")
        #expect(diff.status == 64 && diff.stderr.contains("--agents works with"))
        let both = try jarvis("get", "app.json", "port", "--agent", "solo", "--agents", "all")
        #expect(both.status == 64)
        let plain = try jarvis("get", "app.json", "port")
        #expect(plain.status == 0 && plain.stdout == "8080\n")
    }
}
