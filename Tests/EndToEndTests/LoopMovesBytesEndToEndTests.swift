import Foundation
import JarvisCore
import JarvisRemote
import JarvisTestSupport
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `jarvis-agent` with a Secret Service whose bus accepts and never answers (a hung
/// desktop keyring): whatever path a client takes into that storage — a listing of
/// everything, an export, a listing of the keyring alone, its containers, a `get`, a `set`, a
/// `delete`, a `watch`, the list of scanners, an `undo`, a `redo`, a `restore`, the `journal`,
/// a `check`, a `jarvis import` — only that client waits. Every other client's
/// `ping`, `hello` and `get` are answered meanwhile, and the waiting client gets one complete,
/// valid line within the request timeout (an error, or a listing that names the storage that
/// timed out) and its connection answers its next request.
@Suite(.serialized)
final class LoopMovesBytesEndToEndTests {
    let sandbox: Sandbox
    let bus: SilentListener
    let suites: URL

    init() throws {
        sandbox = try Sandbox()
        bus = try SilentListener(path: sandbox.root.appendingPathComponent("bus").path)
        sandbox.environmentOverrides["DBUS_SESSION_BUS_ADDRESS"] = bus.busAddress
        suites = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("app", in: suites, ["name": "Ada", "count": 3])
    }

    /// Every request that reaches the keyring, by what it exercises.
    static let stuckPaths: [(String, String)] = [
        ("list of everything", #"{"jsonrpc":"2.0","id":7,"method":"list"}"#),
        ("export", #"{"jsonrpc":"2.0","id":7,"method":"list","params":{"export":true}}"#),
        ("list of the keyring", #"{"jsonrpc":"2.0","id":7,"method":"list","params":{"scanner":"secrets"}}"#),
        ("containers", #"{"jsonrpc":"2.0","id":7,"method":"containers","params":{"scanner":"secrets"}}"#),
        ("containers of every scanner", #"{"jsonrpc":"2.0","id":7,"method":"containers"}"#),
        (
            "get",
            #"{"jsonrpc":"2.0","id":7,"method":"get","params":{"scanner":"secrets","container":"github.com","key":"ada"}}"#
        ),
        (
            "set",
            #"{"jsonrpc":"2.0","id":7,"method":"set","params":{"scanner":"secrets","container":"github.com","key":"ada","value":"x"}}"#
        ),
        (
            "delete",
            #"{"jsonrpc":"2.0","id":7,"method":"delete","params":{"scanner":"secrets","container":"github.com","key":"ada"}}"#
        ),
        ("watch", #"{"jsonrpc":"2.0","id":7,"method":"watch","params":{"scanner":"secrets"}}"#),
        ("scanners", #"{"jsonrpc":"2.0","id":7,"method":"scanners"}"#),
    ]

    @Test(arguments: stuckPaths.map(\.0))
    func aClientWaitingOnAHungKeyringHoldsOnlyItself(_ path: String) throws {
        let request = try #require(Self.stuckPaths.first { $0.0 == path }?.1)
        try exercise(path, request, reachesKeyring: path != "scanners")
    }

    /// The journal's requests beside a hung keyring: an undo and a redo of a keyring key's entry
    /// (as an earlier run of the agent left them in its journal file, values planted without
    /// "secret": the scanner says it is a secret's, so the entry keeps no values and is refused
    /// as `unavailable` without asking the keyring), a restore of those keys (refused alike),
    /// the journal itself while another client's `get` waits on the keyring, and a check of
    /// every container.
    static let journalPaths: [(String, String)] = [
        ("undo", #"{"jsonrpc":"2.0","id":7,"method":"undo","params":{"id":1}}"#),
        ("redo", #"{"jsonrpc":"2.0","id":7,"method":"redo","params":{"id":3}}"#),
        ("undo dry run", #"{"jsonrpc":"2.0","id":7,"method":"undo","params":{"id":1,"dryRun":true}}"#),
        ("restore", #"{"jsonrpc":"2.0","id":7,"method":"restore","params":{"toEntry":0}}"#),
        ("restore dry run", #"{"jsonrpc":"2.0","id":7,"method":"restore","params":{"toEntry":0,"dryRun":true}}"#),
        ("journal", #"{"jsonrpc":"2.0","id":7,"method":"journal","params":{"scanner":"secrets"}}"#),
        ("check", #"{"jsonrpc":"2.0","id":7,"method":"check"}"#),
    ]

    @Test(arguments: journalPaths.map(\.0))
    func aJournalRequestWaitingOnAHungKeyringHoldsOnlyItself(_ path: String) throws {
        let request = try #require(Self.journalPaths.first { $0.0 == path }?.1)
        try plantJournal()
        var undoing: RawAgentClient?
        try exercise(path, request, reachesKeyring: path == "check") { agent in
            guard path == "journal" else { return }
            // Another client's read waits on the keyring meanwhile.
            let client = try RawAgentClient(agent)
            client.socket.send(
                #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"scanner":"secrets","container":"github.com","key":"ada"}}"#
                    + "\n")
            try waitUntil("the get reached the bus") { bus.accepted > 0 }
            undoing = client
        }
        withExtendedLifetime(undoing) {}
    }

    /// `jarvis import` of a snapshot whose keys include the hung keyring's: the import ends
    /// with a message and a status that say it did not complete, writes nothing, and every
    /// other client's ping is answered while it waits.
    @Test func anImportIntoAHungKeyringHoldsOnlyItself() throws {
        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "3"])
        var other = try RawAgentClient(agent)
        let snapshot = sandbox.root.appendingPathComponent("snapshot.json")
        try Data(
            #"{"format":"jarvis-snapshot","version":1,"agent":{},"exported":"2026-01-01T00:00:00Z","items":[{"scanner":"defaults","container":"app","key":"name","type":"string","value":"Grace","revision":"0000000000000000"},{"scanner":"secrets","container":"github.com","key":"ada","type":"string","value":"s3cret","revision":"0000000000000000"}]}"#
                .utf8
        ).write(to: snapshot)
        let outcome = Locked<Result<CommandResult, any Error>?>(nil)
        nonisolated(unsafe) let sandbox = sandbox
        let (jarvis, arguments) = (try Binaries.url("jarvis"), ["import", snapshot.path])
        Thread.detachNewThread {
            let result = Result { try sandbox.run(jarvis, arguments, limit: 90) }
            outcome.withLock { $0 = result }
        }
        try waitUntil("the import reached the bus") { bus.accepted > 0 }
        for id in 2..<22 {
            let ping = try other.ask(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n")
            #expect(ping?["result"]?["pong"] == .bool(true), "\(String(describing: ping))")
        }
        try waitUntil("the import ended", within: 100) { outcome.current != nil }
        let result = try #require(try outcome.current?.get())
        #expect(result.status != 0, "\(result.stdout) \(result.stderr)")
        // It names the storage that is stuck, not "a file, a keyring, a Simulator", and writes
        // nothing: what the keyring holds now is not known, so no write could be guarded.
        #expect(
            result.stderr.contains("cannot read what scanner secrets holds now")
                && result.stderr.contains("nothing was imported"), "\(result.stderr)")
        let name = try other.ask(
            #"{"jsonrpc":"2.0","id":30,"method":"get","params":{"scanner":"defaults","container":"app","key":"name"}}"#
                + "\n")
        #expect(name?["result"]?["item"]?["value"]?.stringValue == "Ada", "\(String(describing: name))")
        #expect(agent.isAlive)
    }

    /// `jarvis get` and `jarvis ls` through the real CLI, on an agent whose request timeout
    /// (12 s) is longer than the CLI's own wait (10 s): the CLI waits as long as the agent said
    /// in `hello` and a margin, so it prints the agent's reason (the keyring is not answering)
    /// rather than giving up first with "no reply in time".
    @Test(arguments: [["get", "secrets:github.com", "ada"], ["ls"]])
    func theCLIWaitsForTheAgentsOwnReason(_ arguments: [String]) throws {
        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "12"])
        let result = try sandbox.run(try Binaries.url("jarvis"), arguments + ["--agent", String(agent.pid)], limit: 90)
        let output = result.stdout + result.stderr
        #expect(!output.contains("no reply in time"), "\(output)")
        if arguments == ["ls"] {
            // The defaults are listed, and the keyring is named as what did not answer.
            #expect(result.stdout.contains("Ada"), "\(output)")
            #expect(output.contains("secrets") && output.contains("did not answer within 12 s"), "\(output)")
        } else {
            #expect(output.contains("its storage (secrets:github.com) is not answering"), "\(output)")
        }
        #expect(agent.isAlive)
    }

    /// A container named without its scanner (`jarvis get app name`, as people type it) is
    /// found while the keyring hangs: a read takes the one container found; a write is
    /// refused with the name to type instead, which then works; a name nobody has says the
    /// keyring could not be asked. Each answers within the request timeout.
    @Test func aContainerNamedAloneIsFoundWhileTheKeyringHangs() throws {
        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "3"])
        let pid = String(agent.pid)
        let read = try sandbox.jarvis("--agent", pid, "get", "app", "name")
        #expect(read.status == 0 && read.stdout.contains("Ada"), "\(read.stdout) \(read.stderr)")
        let write = try sandbox.jarvis("--agent", pid, "set", "app", "name", "Grace")
        #expect(write.status != 0, "\(write.stdout)")
        #expect(
            write.stderr.contains("scanner secrets did not answer") && write.stderr.contains("defaults:app"),
            "\(write.stderr)")
        let named = try sandbox.jarvis("--agent", pid, "set", "defaults:app", "name", "Grace")
        #expect(named.status == 0, "\(named.stderr)")
        let missing = try sandbox.jarvis("--agent", pid, "get", "nowhere", "name")
        #expect(
            missing.status != 0 && missing.stderr.contains("no container 'nowhere' in the scanners that answered"),
            "\(missing.stderr)")
        #expect(try sandbox.jarvis("--agent", pid, "get", "app", "name").stdout.contains("Grace"))
        #expect(agent.isAlive)
    }

    /// The agent's journal file as an earlier run left it: a set of `secrets:github.com ada`
    /// (entry 1), a set of `grace` (2) and its undo (3).
    private func plantJournal() throws {
        let place = #""scanner":"secrets","container":"github.com","place":"\#(Sandbox.secretServicePlace)""#
        let lines = [
            #"{"jarvisJournal":1}"#,
            #"{"id":1,"time":"2026-01-01T00:00:00Z","action":"set",\#(place),"key":"ada","after":{"type":"string","value":"x"},"afterRevision":"1111111111111111"}"#,
            #"{"id":2,"time":"2026-01-01T00:00:01Z","action":"set",\#(place),"key":"grace","after":{"type":"string","value":"y"},"afterRevision":"2222222222222222"}"#,
            #"{"id":3,"time":"2026-01-01T00:00:02Z","action":"undo",\#(place),"key":"grace","before":{"type":"string","value":"y"},"beforeRevision":"2222222222222222","reverts":2}"#,
        ]
        try sandbox.plantJournal(serving: ["--secret-service", "--defaults-dir", suites.path], lines: lines)
    }

    /// Sends `request` on one client while another's ping, hello and get must be answered;
    /// then the waiting client's one complete line, and its next ping.
    /// - Parameter before: run once the agent is up, before the request is sent.
    /// A watch of every scanner (what `jarvis watch`, `jarvis inspect` and `jarvis web` ask) is
    /// answered within the request timeout while the keyring hangs, and a change to the
    /// defaults is still sent: the hung storage holds up its own changes alone.
    @Test func aWatchOfEveryScannerIsAnsweredAndHearsTheOthersWhileTheKeyringHangs() throws {
        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "3"])
        var watcher = try RawAgentClient(agent)
        let answer = try watcher.ask(#"{"jsonrpc":"2.0","id":1,"method":"watch"}"# + "\n", timeout: .seconds(30))
        #expect(answer?["result"]?["subscription"] != nil, "\(String(describing: answer))")
        #expect(bus.accepted > 0, "the agent asked the keyring")
        var writer = try RawAgentClient(agent)
        let set = try writer.ask(
            #"{"jsonrpc":"2.0","id":2,"method":"set","params":{"scanner":"defaults","container":"app","key":"name","value":"Grace"}}"#
                + "\n", timeout: .seconds(30))
        #expect(set?["result"] != nil, "\(String(describing: set))")
        var heard = false
        let deadline = ContinuousClock.now + .seconds(60)
        while !heard, ContinuousClock.now < deadline, let line = try watcher.reader.nextJSON(timeout: .seconds(5)) {
            heard = line["method"]?.stringValue == "changed" && "\(line)".contains("Grace")
        }
        #expect(heard, "the change to the defaults was not sent while the keyring hung")
        #expect(agent.isAlive)
    }

    private func exercise(
        _ path: String, _ request: String, reachesKeyring: Bool, before: (AgentProcess) throws -> Void = { _ in }
    ) throws {
        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "3"])
        var other = try RawAgentClient(agent)
        #expect(try other.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n")?["result"] != nil)
        try before(agent)

        var stuck = try RawAgentClient(agent)
        stuck.socket.send(request + "\n")
        // The agent's call reached the silent bus (or waits behind the one that did); the
        // list of scanners may answer from what it knows.
        if reachesKeyring { try waitUntil("the agent connected to the bus") { bus.accepted > 0 } }
        for id in 2..<22 {
            let ping = try other.ask(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n")
            #expect(ping?["result"]?["pong"] == .bool(true), "\(path): \(String(describing: ping))")
            let hello = try other.ask(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"hello","params":{"client":"other","protocolVersion":"1.0"}}"#
                    + "\n")
            #expect(hello?["result"] != nil, "\(path): \(String(describing: hello))")
            let get = try other.ask(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"get","params":{"scanner":"defaults","container":"app","key":"name"}}"#
                    + "\n")
            #expect(get?["result"]?["item"]?["value"]?.stringValue == "Ada", "\(path): \(String(describing: get))")
        }

        // The stuck client's own answer: one complete line, within the timeout and a margin.
        let answer = try stuck.reader.nextJSON(timeout: .seconds(30))
        #expect(answer?["id"]?.int64Value == 7, "\(path): \(String(describing: answer))")
        if path.hasPrefix("list") || path == "export" {
            // A listing passes over the keyring and answers with the rest.
            let result = answer?["result"]
            #expect(result != nil, "\(path): \(String(describing: answer))")
            let problems = result?["problems"]?.arrayValue ?? []
            #expect(
                problems.contains { $0["scanner"]?.stringValue == "secrets" },
                "\(path): the answer names the keyring: \(String(describing: answer))")
            if path != "list of the keyring" {
                #expect(
                    result?["items"]?.arrayValue?.contains { $0["key"]?.stringValue == "name" } == true,
                    "\(path): the defaults read before the keyring are in the answer")
            }
        } else if let result = answer?["result"], path == "containers of every scanner" {
            // The keyring is one entry naming the problem; the defaults' containers are there.
            let containers = result["containers"]?.arrayValue ?? []
            #expect(
                containers.contains { $0["scanner"]?.stringValue == "defaults" && $0["name"]?.stringValue == "app" },
                "\(path): \(String(describing: answer))")
            #expect(
                containers.contains {
                    $0["scanner"]?.stringValue == "secrets" && $0["name"]?.stringValue == ""
                        && $0["problem"]?.stringValue?.contains("did not answer within 3 s") == true
                }, "\(path): \(String(describing: answer))")
        } else if path == "journal" {
            #expect(
                answer?["result"]?["entries"]?.arrayValue?.isEmpty == false, "\(path): \(String(describing: answer))")
        } else if path.hasPrefix("undo") || path.hasPrefix("redo") || path.hasPrefix("restore") {
            // A secret's entry read from the file keeps no values: refused, the keyring unasked.
            #expect(answer?["error"]?["data"]?["code"]?.stringValue == "unavailable", "\(path): \(String(describing: answer))")
        } else if path != "scanners" && path != "watch" {
            #expect(answer?.errorCode == -32007, "\(path): \(String(describing: answer))")
            // A request that named its storage is told which one is not answering.
            if request.contains(#""container":"github.com""#) {
                let message = answer?["error"]?["message"]?.stringValue ?? ""
                #expect(message.contains("its storage (secrets:github.com) is not answering"), "\(path): \(message)")
            }
        }
        // Its connection goes on.
        let after = try stuck.ask(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"# + "\n", timeout: .seconds(10))
        #expect(after?["result"]?["pong"] == .bool(true), "\(path): \(String(describing: after))")
        // And so does the same request again, though the keyring still holds the first one's
        // thread (the connection's work once waited in line for ever behind it).
        let again = try stuck.ask(
            request.replacingOccurrences(of: #""id":7"#, with: #""id":9"#) + "\n", timeout: .seconds(30))
        #expect(again?["id"]?.int64Value == 9, "\(path): \(String(describing: again))")
        #expect(agent.isAlive)
    }
}
