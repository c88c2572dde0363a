import Foundation
import JarvisCore
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The browser's comparisons across agents (issue 36), driven over HTTP as the page sends
/// its intents, on real `jarvis-agent` processes and the real `jarvis web`: a key read on
/// every agent (a stopped one is `no answer` within the bound and delays no other line),
/// "Set on all" and "Copy to…" guarded per agent, a container compared with another agent
/// or a snapshot file, each difference applied to the agent in view alone.
@Suite(.serialized) final class FleetWebEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    /// Starts an agent named `name` serving its own folder, whose `app.json` holds `port`
    /// (and `extra` keys).
    @discardableResult
    func agent(_ name: String, port: Int, folder key: String? = nil, extra: String = "", _ flags: [String] = [])
        throws -> AgentProcess
    {
        let folder = files(key ?? name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"port": \#(port)\#(extra)}"#.utf8).write(to: folder.appendingPathComponent("app.json"))
        return try AgentProcess(sandbox, ["--files", folder.path, "--name", name] + flags)
    }

    func files(_ name: String) -> URL { sandbox.root.appendingPathComponent("files-\(name)") }

    /// A key of an agent's file, read from the disk (not through any agent).
    func stored(_ name: String, _ key: String = "port") throws -> JSONValue? {
        try JSONParser.parse(Data(contentsOf: files(name).appendingPathComponent("app.json")))[key]
    }

    static let port: JSONValue = ["s": "files", "c": "app.json", "k": "port", "p": ""]

    /// One page of `jarvis web`, spoken to as the page's scripts speak.
    final class Page {
        let web: WebLoopEndToEndTests.Web
        let cookie: String
        let id: String

        init(_ web: WebLoopEndToEndTests.Web) throws {
            self.web = web
            cookie = try web.cookie()
            let opened = try Self.answer(try web.exchange(web.openPage(cookie: cookie)))
            guard let id = opened.json["page"]?.stringValue else { throw HarnessError("no page: \(opened)") }
            self.id = id
        }

        static func answer(_ text: String) throws -> (status: Int, json: JSONValue) {
            guard let end = text.range(of: "\r\n\r\n") else { throw HarnessError("no answer: \(text.prefix(200))") }
            let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
            return (status, (try? JSONParser.parse(Array(text[end.upperBound...].utf8), maxDepth: 64)) ?? .null)
        }

        /// Posts a raw body to the page's intent route.
        func post(_ body: [UInt8]) throws -> (status: Int, json: JSONValue) {
            let head =
                "POST \(web.root)api/pages/\(id)/intent HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n"
                + "Origin: http://127.0.0.1:\(web.port)\r\nCookie: \(cookie)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\n\r\n"
            return try Self.answer(
                try web.exchange(head + String(decoding: body, as: UTF8.self), timeout: .seconds(60)))
        }

        /// One intent; the view it answered.
        @discardableResult
        func intent(_ fields: JSONValue) throws -> JSONValue {
            let answer = try post(JSONWriter.bytes(fields))
            guard answer.status == 200 else { throw HarnessError("\(fields) → \(answer.status) \(answer.json)") }
            return answer.json
        }

        /// Views, asked with an intent that changes nothing, until one meets `condition`.
        func view(
            within seconds: Double = 30, _ what: String, until condition: (JSONValue) -> Bool
        ) throws -> JSONValue {
            let deadline = Date().addingTimeInterval(seconds)
            var last = JSONValue.null
            while Date() < deadline {
                last = try intent(["intent": "check"])
                if condition(last) { return last }
                usleep(50_000)
            }
            throw HarnessError("timed out waiting for \(what); last view: \(JSONWriter.string(last))")
        }
    }

    /// The line of the fleet (or results) whose agent reads exactly `agent`.
    static func line(_ view: JSONValue, _ agent: String, results: Bool = false) -> JSONValue? {
        view["fleet"]?[results ? "results" : "lines"]?.arrayValue?.first {
            $0["agent"]?.stringValue == agent || $0["agent"]?.stringValue == agent + " (this agent)"
        }
    }

    static func status(_ view: JSONValue, _ agent: String, results: Bool = false) -> String? {
        line(view, agent, results: results)?["status"]?.stringValue
    }

    func open(_ agent: AgentProcess) throws -> Page {
        let web = try WebLoopEndToEndTests.Web(sandbox, agent: String(agent.pid))
        webs.append(web)
        let page = try Page(web)
        try page.intent(["intent": "scope", "scanner": "files", "container": "app.json"])
        return page
    }

    var webs: [WebLoopEndToEndTests.Web] = []

    @Test func aKeyIsReadOnEveryAgentAndAStoppedOneIsNoAnswerWithoutDelayingTheOthers() throws {
        let here = try agent("here", port: 1, extra: #", "name": "Ada""#)
        try agent("same", port: 1)
        try agent("other", port: 2)
        let stuck = try agent("stuck", port: 3)
        kill(stuck.pid, SIGSTOP)
        defer { kill(stuck.pid, SIGCONT) }
        let page = try open(here)
        let started = Date()
        var view = try page.intent(["intent": "fleetKey", "target": Self.port])
        #expect(view["fleet"]?["lines"]?.arrayValue?.first?["own"] == true)
        view = try page.view("the live agents' lines") { view in
            ["here", "same", "other"].allSatisfy { Self.status(view, $0) == "ok" }
        }
        let othersCame = Date().timeIntervalSince(started)
        // The others answered while the stopped agent was still being waited for.
        #expect(Self.status(view, "stuck") == "reading", "\(JSONWriter.string(view["fleet"] ?? .null))")
        #expect(Self.line(view, "other")?["value"] == "2" && Self.line(view, "other")?["differs"] == true)
        #expect(Self.line(view, "same")?["differs"] == false)
        view = try page.view("the stopped agent's no answer") { Self.status($0, "stuck") == "no answer" }
        let stuckCame = Date().timeIntervalSince(started)
        #expect(othersCame < stuckCame)
        // The bound (5 s) and a loaded machine's slack, never the 10 s of a client's default.
        #expect(stuckCame < 12, "no answer after \(stuckCame) s")
        #expect(Self.line(view, "stuck")?["differs"] == false)
        // Another key closes the comparison.
        view = try page.intent(["intent": "open", "target": ["s": "files", "c": "app.json", "k": "name", "p": ""]])
        #expect(view["fleet"] == .null)
    }

    @Test func whileThePageIsLiveAnAgentThatStartsGetsALineAndOneThatStopsLosesIt() throws {
        let here = try agent("here", port: 1)
        let leaving = try agent("leaving", port: 2)
        let page = try open(here)
        try page.intent(["intent": "fleetKey", "target": Self.port])
        _ = try page.view("the first lines") { Self.status($0, "leaving") == "ok" }
        // The page's live stream is open: the lines are read again on the poll.
        let stream = try Socket.connect(to: page.web.endpoint, timeout: .seconds(5))
        defer { stream.close() }
        try stream.writeAll(
            Array(
                ("GET \(page.web.root)api/pages/\(page.id)/events HTTP/1.1\r\nHost: 127.0.0.1:\(page.web.port)\r\n"
                    + "Origin: http://127.0.0.1:\(page.web.port)\r\nCookie: \(page.cookie)\r\n\r\n").utf8),
            timeout: .seconds(5))
        try agent("late", port: 3)
        var view = try page.view("the agent that started") { Self.line($0, "late")?["value"] == "3" }
        #expect(Self.line(view, "late")?["differs"] == true)
        kill(leaving.pid, SIGTERM)
        view = try page.view("the agent that stopped to leave") { Self.line($0, "leaving") == nil }
        #expect(view["fleet"]?["lines"]?.arrayValue?.count == 2)
    }

    @Test func setOnAllWritesEachAgentGuardedAndRefusesProductionAndReadOnlyByName() throws {
        let here = try agent("here", port: 7)
        try agent("dev", port: 1)
        try agent("prod", port: 2, ["--production"])
        try agent("readonly", port: 3, ["--read-only"])
        let page = try open(here)
        try page.intent(["intent": "fleetKey", "target": Self.port])
        _ = try page.view("every line") { view in
            ["dev", "prod", "readonly"].allSatisfy { Self.status(view, $0) == "ok" }
        }
        let view = try page.intent(["intent": "fleetSetAll"])
        #expect(Self.status(view, "dev", results: true) == "changed", "\(JSONWriter.string(view["fleet"] ?? .null))")
        #expect(Self.line(view, "dev", results: true)?["value"] == "1 → 7")
        #expect(Self.status(view, "prod", results: true) == "refused")
        #expect(Self.line(view, "prod", results: true)?["reason"]?.stringValue?.contains("production") == true)
        #expect(Self.status(view, "readonly", results: true) == "refused")
        #expect(Self.line(view, "here", results: true) == nil, "the agent in view is not written")
        #expect(view["message"]?["kind"] == "error")
        #expect(try stored("dev") == .integer(7))
        #expect(try stored("prod") == .integer(2) && stored("readonly") == .integer(3))
        // Read again after the write: dev now holds the same value.
        let after = try page.view("dev read again") { Self.line($0, "dev")?["value"] == "7" }
        #expect(Self.line(after, "dev")?["differs"] == false)
    }

    @Test func aValueChangedOnOneAgentAfterTheReadIsAConflictThereAndNotOverwritten() throws {
        let here = try agent("here", port: 7)
        try agent("calm", port: 1)
        let busy = try agent("busy", port: 2)
        let page = try open(here)
        try page.intent(["intent": "fleetKey", "target": Self.port])
        _ = try page.view("every line") { view in ["calm", "busy"].allSatisfy { Self.status(view, $0) == "ok" } }
        // Someone changes the key on one agent after the page read it (no live stream: no poll).
        let set = try sandbox.jarvis("--agent", String(busy.pid), "set", "files:app.json", "port", "99")
        #expect(set.status == 0, "\(set.stderr)")
        let view = try page.intent(["intent": "fleetSetAll"])
        #expect(Self.status(view, "calm", results: true) == "changed")
        #expect(Self.status(view, "busy", results: true) == "conflict", "\(JSONWriter.string(view["fleet"] ?? .null))")
        #expect(try stored("calm") == .integer(7))
        #expect(try stored("busy") == .integer(99))
    }

    @Test func twoAgentsOfOneNameAreShownApartAndCopyToWritesOnlyTheOneChosen() throws {
        let here = try agent("here", port: 5)
        let first = try agent("twin", port: 1, folder: "twin-1")
        let second = try agent("twin", port: 2, folder: "twin-2")
        let page = try open(here)
        try page.intent(["intent": "fleetKey", "target": Self.port])
        let view = try page.view("both twins") { view in
            Self.status(view, "twin[\(first.pid)]") == "ok" && Self.status(view, "twin[\(second.pid)]") == "ok"
        }
        #expect(Self.line(view, "twin[\(second.pid)]")?["id"] == .string(String(second.pid)))
        let copied = try page.intent(["intent": "fleetCopy", "agents": [.string(String(second.pid))]])
        #expect(copied["fleet"]?["results"]?.arrayValue?.count == 1)
        #expect(Self.status(copied, "twin[\(second.pid)]", results: true) == "changed")
        #expect(try stored("twin-2") == .integer(5))
        #expect(try stored("twin-1") == .integer(1))
        // An id that is no agent compared is refused, and nothing is written anywhere.
        let refused = try page.intent(["intent": "fleetCopy", "agents": ["1"]])
        #expect(refused["message"]?["text"]?.stringValue?.contains("not among the agents compared") == true)
        #expect(try stored("twin-1") == .integer(1))
    }

    @Test func aContainerIsComparedWithAnotherAgentAndEachDifferenceAppliedHereAlone() throws {
        let here = try agent("here", port: 1, extra: #", "name": "Ada", "mine": true"#)
        let other = try agent("there", port: 2, extra: #", "name": "Ada", "theirs": "x""#)
        let page = try open(here)
        var view = try page.intent(["intent": "compareAgent", "id": .string(String(other.pid))])
        let differences = view["comparison"]?["differences"]?.arrayValue ?? []
        #expect(
            differences.map { "\($0["kind"]?.stringValue ?? "") \($0["key"]?.stringValue ?? "")" }
                == ["removed mine", "changed port", "added theirs"], "\(JSONWriter.string(view["comparison"] ?? .null))"
        )
        #expect(view["comparison"]?["unchanged"] == 1)
        #expect(differences.first { $0["key"] == "port" }?["apply"] == "Use theirs here")
        // One difference applied: here changes, the other agent never does.
        view = try page.intent(["intent": "compareApply", "key": "port"])
        #expect(try stored("here") == .integer(2))
        #expect(view["comparison"]?["applied"]?["kind"] == "info", "\(JSONWriter.string(view["comparison"] ?? .null))")
        #expect(
            view["comparison"]?["differences"]?.arrayValue?.map { $0["key"]?.stringValue ?? "" } == ["mine", "theirs"])
        view = try page.intent(["intent": "compareApply", "key": "theirs"])
        #expect(try stored("here", "theirs") == .string("x"))
        let there = try JSONParser.parse(Data(contentsOf: files("there").appendingPathComponent("app.json")))
        #expect(there["mine"] == nil && there["port"] == .integer(2))
        // A key changed here after the comparison read it: a conflict, nothing overwritten.
        let set = try sandbox.jarvis("--agent", String(here.pid), "set", "files:app.json", "mine", "false")
        #expect(set.status == 0, "\(set.stderr)")
        view = try page.intent(["intent": "compareApply", "key": "mine"])
        #expect(view["message"]?["text"]?.stringValue?.contains("conflict") == true, "\(view["message"])")
        #expect(try stored("here", "mine") == .bool(false))
        // The comparison is the container in view's: another scope closes it.
        view = try page.intent(["intent": "scope"])
        #expect(view["comparison"] == .null && view["compareOffer"] == .null)
    }

    @Test func aSnapshotFileIsComparedAndWhatIsNoSnapshotOrTooLargeIsRefusedClearly() throws {
        let here = try agent("here", port: 1, extra: #", "name": "Ada""#)
        try agent("source", port: 9, extra: #", "name": "Grace""#)
        let snapshot = sandbox.root.appendingPathComponent("source.json")
        let export = try sandbox.jarvis("--agent", "source", "export", "files:app.json", "--output", snapshot.path)
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOf: snapshot, encoding: .utf8)
        let page = try open(here)
        var view = try page.intent(["intent": "compareFile", "name": "source.json", "text": .string(text)])
        let keys = view["comparison"]?["differences"]?.arrayValue?.map { $0["key"]?.stringValue ?? "" }
        #expect(keys == ["name", "port"], "\(JSONWriter.string(view["comparison"] ?? .null)) \(view["message"])")
        view = try page.intent(["intent": "compareApply", "key": "name"])
        #expect(try stored("here", "name") == .string("Grace"))
        #expect(try stored("source", "name") == .string("Grace") && stored("here") == .integer(1))

        // Not a snapshot: the decoder of `jarvis diff` says so, and the comparison stays as it was.
        view = try page.intent(["intent": "compareFile", "name": "notes.json", "text": #"{"hello": 1}"#])
        #expect(view["message"]?["text"]?.stringValue?.contains("notes.json is not a Jarvis snapshot") == true)
        #expect(view["comparison"]?["there"] == "snapshot source.json")
        view = try page.intent(["intent": "compareFile", "name": "broken.json", "text": "{not json"])
        #expect(view["message"]?["text"]?.stringValue?.contains("broken.json is not JSON") == true)
        // Over the page's limit: a clear error that says how to compare it instead.
        let large = String(repeating: " ", count: 600 * 1024) + text
        view = try page.intent(["intent": "compareFile", "name": "large.json", "text": .string(large)])
        #expect(view["message"]?["text"]?.stringValue?.contains("large.json is 60") == true, "\(view["message"])")
        #expect(view["message"]?["text"]?.stringValue?.contains("jarvis diff") == true)
        // Over what the server reads at all: refused before it is read, with the reason.
        let huge =
            Array(#"{"intent":"compareFile","name":"huge.json","text":""#.utf8)
            + [UInt8](repeating: 0x20, count: 2 << 20) + Array(#""}"#.utf8)
        let refused = try page.post(huge)
        #expect(refused.status == 413)
        #expect(try stored("here", "name") == .string("Grace"))
    }
}
