import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Another local user (`nobody`, through `setpriv`) prepares folders, records and sockets for
/// the real `jarvis` and `jarvis-agent`: they refuse, say why, and send nothing.
@Suite(.serialized) struct TrustEndToEndTests {
    static let canSwitchUser = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    /// The other user listens with socat: without it (and outside CI) those tests are skipped.
    static let canListenAsStranger = canSwitchUser && OptionalTool.runs(["socat"])
    let sandbox: Sandbox
    /// A folder everyone may write, as the shared temporary folder is (mode 1777).
    let shared: URL

    init() throws {
        sandbox = try Sandbox()
        chmod(sandbox.root.path, 0o755)
        shared = sandbox.root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        chmod(shared.path, 0o1777)
    }

    /// Starts a command as `nobody`.
    func asStranger(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a helper process for good. `terminate()` sends SIGTERM, which these children never
    /// see: started from a test's worker thread, they inherit its mask with SIGTERM blocked, so
    /// every run left its `socat` listeners behind.
    static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs a command as `nobody` to its end.
    func strangerRuns(_ arguments: [String]) throws {
        let process = try asStranger(arguments)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments) failed")
    }

    /// `nobody` listens on a Unix socket and logs every byte a client sends.
    func strangerListens(at socket: String, log: String) throws -> Process {
        let process = try asStranger(["socat", "-u", "UNIX-LISTEN:\(socket),fork", "OPEN:\(log),creat,append"])
        try waitFor(socket)
        return process
    }

    /// `nobody` makes a folder in the shared one and listens on `1.sock` in it, logging to `received.log`.
    func strangerFolderWithListener(_ name: String, mode: String) throws -> (
        folder: String, socket: String, log: String, listener: Process
    ) {
        let folder = shared.appendingPathComponent(name).path
        try strangerRuns(["mkdir", "-m", mode, folder])
        let socket = folder + "/1.sock"
        let log = folder + "/received.log"
        return (folder, socket, log, try strangerListens(at: socket, log: log))
    }

    func waitFor(_ path: String) throws {
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: path) {
            guard Date() < deadline else { throw HarnessError("\(path) did not appear") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    func received(_ log: String) -> String {
        (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    @Test(.enabled(if: canListenAsStranger, "needs root, setpriv and socat (apt-get install socat) to act as another user"))
    func aRuntimeFolderMadeByAnotherUserIsRefusedAndItsSocketGetsNothing() throws {
        let (planted, socket, log, listener) = try strangerFolderWithListener("jarvis-run", mode: "700")
        defer { Self.end(listener) }
        let record = #"{"pid":\#(listener.processIdentifier),"name":"app","socket":"\#(socket)"}"#
        try strangerRuns(["sh", "-c", "printf '%s' '\(record)' > \(planted)/1.json"])
        sandbox.runtime = URL(fileURLWithPath: planted)

        let agents = try sandbox.jarvis("agents")
        #expect(agents.status != 0)
        #expect(agents.stderr.contains("the runtime folder \(planted) belongs to uid 65534, not to you"))
        #expect(agents.stderr.contains("JARVIS_RUNTIME_DIR"))
        let set = try sandbox.jarvis("set", "com.example.app", "password", "hunter2")
        #expect(set.status != 0)
        #expect(set.stderr.contains(planted))
        #expect(received(log).isEmpty)

        // The agent refuses to start there, and leaves nothing in it.
        let before = try FileManager.default.contentsOfDirectory(atPath: planted).sorted()
        let agent = try sandbox.run(Binaries.url("jarvis-agent"), ["--demo"])
        #expect(agent.status != 0)
        #expect(agent.stderr.contains("the runtime folder \(planted) belongs to uid 65534"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: planted).sorted() == before)
    }

    @Test(.enabled(if: canSwitchUser, "needs root and setpriv to act as another user"))
    func aLinkedRuntimeFolderIsRefused() throws {
        let target = sandbox.root.appendingPathComponent("mine").path
        try FileManager.default.createDirectory(
            atPath: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let link = shared.appendingPathComponent("jarvis-link").path
        try strangerRuns(["ln", "-s", target, link])
        sandbox.runtime = URL(fileURLWithPath: link)
        let agent = try sandbox.run(Binaries.url("jarvis-agent"), ["--demo"])
        #expect(agent.status != 0)
        #expect(agent.stderr.contains("the runtime folder \(link) is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
        let agents = try sandbox.jarvis("agents")
        #expect(agents.status != 0)
        #expect(agents.stderr.contains("\(link) is a symbolic link"))
    }

    @Test(.enabled(if: canListenAsStranger, "needs root, setpriv and socat (apt-get install socat) to act as another user"))
    func aSocketOfAnotherUserGetsNothingEvenWhenARecordNamesIt() throws {
        let (_, socket, log, listener) = try strangerFolderWithListener("theirs", mode: "755")
        defer { Self.end(listener) }

        let typed = try sandbox.jarvis("--agent", socket, "set", "com.example.app", "password", "hunter2")
        #expect(typed.status != 0)
        #expect(typed.stderr.contains("runs as uid 65534, not as you"))
        #expect(typed.stderr.contains("nothing was sent"))

        // A record in the user's own folder that points at that socket is no better.
        let record = #"{"pid":\#(listener.processIdentifier),"name":"app","socket":"\#(socket)"}"#
        try Data(record.utf8).write(to: sandbox.runtime.appendingPathComponent("1.json"))
        let found = try sandbox.jarvis("set", "com.example.app", "password", "hunter2")
        #expect(found.status != 0)
        #expect(found.stderr.contains("runs as uid 65534"))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(received(log).isEmpty)
        #expect(FileManager.default.fileExists(atPath: socket))
    }

    /// Whether this machine has an IPv6 loopback (containers may have it turned off).
    static let hasIPv6Loopback: Bool = {
        guard let socket = try? Socket.listen(on: .tcp(host: "::1", port: 0)) else { return false }
        socket.close()
        return true
    }()

    @Test(
        .enabled(if: hasIPv6Loopback, "needs an IPv6 loopback address"),
        .enabled(if: OptionalTool.runs(["socat"]), OptionalTool.hint(["socat"], install: "apt-get install socat")))
    func theTokenIsNotSentToAnotherSpellingOfItsAddress() throws {
        let agent = try AgentProcess(sandbox, ["--demo", "--listen", "127.0.0.1:0"])
        let token = try #require(agent.record.token)
        guard case .tcp(_, let port) = try agent.tcp() else { throw HarnessError("no TCP endpoint") }
        let log = sandbox.root.appendingPathComponent("alias.log").path
        let alias = Process()
        alias.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Logs the first line a client sends, then hangs up.
        alias.arguments = ["socat", "TCP6-LISTEN:\(port),bind=[::1],reuseaddr", "SYSTEM:head -n 1 >> \(log)"]
        try alias.run()
        defer { Self.end(alias) }
        Thread.sleep(forTimeInterval: 0.5)

        let aliased = try sandbox.jarvis("--agent", "tcp://[::1]:\(port)", "ls")
        #expect(aliased.status != 0)
        let seen = received(log)
        #expect(seen.contains("hello"), "the listener on [::1] got no hello at all: \(seen)")
        #expect(!seen.contains(token))
        #expect(!seen.contains("token"))
        // The exact address recorded with the token still works with no --token.
        let exact = try sandbox.jarvis("--agent", "tcp://127.0.0.1:\(port)", "ls")
        #expect(exact.status == 0, "\(exact.stderr)")
    }

    func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func filesHoldingTokensOrSecretsAreOwnerOnly() throws {
        let log = sandbox.root.appendingPathComponent("agent.log")
        let agent = try sandbox.startAgent(["--demo", "--allow-reveal", "--listen", "0"], log: log)
        #expect(try mode(sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).json").path) == 0o600)
        // The agent publishes its record before it prints where the demo data is: wait for the line.
        var line: Substring?
        let deadline = Date().addingTimeInterval(20)
        while line == nil, Date() < deadline {
            let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            line = printed.split(separator: "\n").first { $0.hasPrefix("demo data in ") }
            if line == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        let announced = try #require(line, "the agent never printed where its demo data is")
        let demo = String(announced.dropFirst("demo data in ".count))
        #expect(try mode(demo) == 0o700)
        let secrets = try FileManager.default.contentsOfDirectory(atPath: demo + "/secrets")
        #expect(!secrets.isEmpty)
        for name in secrets { #expect(try mode(demo + "/secrets/" + name) == 0o600) }
        let output = sandbox.root.appendingPathComponent("revealed.json").path
        let export = try sandbox.jarvis("export", "--reveal", "--output", output)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("correct-horse-battery-staple"))
        #expect(try mode(output) == 0o600)
    }

    @Test func aRuntimeFolderLongerThan200BytesServesTheRealAgent() throws {
        let long = sandbox.root.appendingPathComponent(String(repeating: "r", count: 120))
            .appendingPathComponent(String(repeating: "u", count: 100))
        try FileManager.default.createDirectory(
            at: long, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(long.path.utf8.count > 200)
        sandbox.runtime = long
        let agent = try AgentProcess(sandbox, ["--demo"])
        let socket = try #require(agent.record.socket)
        #expect(socket.hasPrefix("/tmp/jarvis-\(getuid())."))
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("com.example.demo.prefs"))
        let agents = try sandbox.jarvis("agents")
        #expect(agents.stdout.contains(socket))
        agent.process.terminate()
        agent.process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: (socket as NSString).deletingLastPathComponent))
    }
}
