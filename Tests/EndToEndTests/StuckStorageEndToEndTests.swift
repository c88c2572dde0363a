import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `jarvis-agent` while its storage does not answer: a real GNOME Keyring whose
/// daemon is stopped (`SIGSTOP`), so every Secret Service call waits, as on a keyring that
/// waits for an unlock. A `get` of a secret is stuck for its own client only: other clients'
/// `get`s answer, writes to other storage run, change notifications arrive, and the stuck
/// call ends with a timeout error to its client.
@Suite(
    .serialized,
    .enabled(if: KeyringSession.isAvailable || OptionalTool.inCI, Comment(rawValue: KeyringSession.installHint)))
final class StuckStorageEndToEndTests {
    let sandbox: Sandbox
    let keyring: KeyringSession
    let monitor: KeyringMonitor
    let suites: URL

    private static let secretGet =
        #"{"jsonrpc":"2.0","id":ID,"method":"get","params":{"scanner":"secrets","container":"github.com","key":"ada"}}"#
    private static let defaultsGet =
        #"{"jsonrpc":"2.0","id":ID,"method":"get","params":{"scanner":"defaults","container":"app","key":"name"}}"#

    init() throws {
        sandbox = try Sandbox()
        keyring = try KeyringSession(root: sandbox.root)
        sandbox.environmentOverrides = keyring.overrides
        let stored = try keyring.secretTool(
            ["store", "--label=GitHub: ada", "service", "github.com", "account", "ada"], stdin: "ghp-STUCK-e2e-1")
        #expect(stored.status == 0, "secret-tool store: \(stored.stderr)")
        monitor = try KeyringMonitor(keyring: keyring, root: sandbox.root)
        suites = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("app", in: suites, ["name": "Ada"])
    }

    deinit {
        keyring.pauseKeyring(false)
    }

    private func line(_ template: String, id: Int) -> String {
        template.replacingOccurrences(of: "ID", with: String(id)) + "\n"
    }

    private func startAgent(timeout seconds: String) throws -> AgentProcess {
        try AgentProcess(
            sandbox,
            ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", seconds])
    }

    /// Stops the keyring, sends a secret `get` on `client`, and waits until the agent's call
    /// reached the bus: the call is in flight and will not return.
    private func sendStuckGet(on client: RawAgentClient, id: Int) throws {
        let before = monitor.written
        client.socket.send(line(Self.secretGet, id: id))
        try waitUntil("the agent's Secret Service call reached the bus") { monitor.sawCall(since: before) }
    }

    @Test func anotherClientsGetsWritesAndNotificationsFlowWhileAKeyringCallIsStuck() throws {
        let agent = try startAgent(timeout: "3")
        var stuck = try RawAgentClient(agent)
        var reader = try RawAgentClient(agent)
        var watcher = try RawAgentClient(agent)
        var writer = try RawAgentClient(agent)
        // The secret answers while the keyring runs; the service is set up.
        #expect(try stuck.ask(line(Self.secretGet, id: 1))?["result"] != nil)
        #expect(try reader.ask(line(Self.defaultsGet, id: 1))?["result"]?["item"]?["value"]?.stringValue == "Ada")
        let watching = try watcher.ask(
            #"{"jsonrpc":"2.0","id":1,"method":"watch","params":{"scanner":"defaults","container":"app"}}"# + "\n")
        #expect(watching?["result"] != nil, "\(String(describing: watching))")

        keyring.pauseKeyring(true)
        defer { keyring.pauseKeyring(false) }
        try sendStuckGet(on: stuck, id: 2)

        for id in 2..<52 {
            let answer = try reader.ask(line(Self.defaultsGet, id: id))
            #expect(answer?["id"]?.int64Value == Int64(id))
            #expect(answer?["result"]?["item"]?["value"]?.stringValue == "Ada", "\(String(describing: answer))")
        }
        // A write to other storage runs on another thread, and its change is heard.
        let set = try writer.ask(
            #"{"jsonrpc":"2.0","id":1,"method":"set","params":{"scanner":"defaults","container":"app","key":"name","value":"Eve"}}"#
                + "\n")
        #expect(set?["result"] != nil, "\(String(describing: set))")
        let notification = try watcher.reader.nextJSON(timeout: .seconds(5))
        #expect(notification?["method"]?.stringValue == "changed", "\(String(describing: notification))")

        // The stuck call ends for its own client, with an error that says what happened.
        let refused = try stuck.reader.nextJSON(timeout: .seconds(10))
        #expect(refused?["id"]?.int64Value == 2, "\(String(describing: refused))")
        #expect(refused?.errorCode == -32007, "\(String(describing: refused))")
        #expect(refused?["error"]?["message"]?.stringValue?.contains("did not finish within 3 s:") == true)
        #expect(try reader.ask(line(Self.defaultsGet, id: 60))?["result"]?["item"]?["value"]?.stringValue == "Eve")
        #expect(agent.isAlive)
    }

    /// A timeout under a second is told in milliseconds (it read "0 s" before).
    @Test func aTimeoutUnderASecondIsToldInMilliseconds() throws {
        let agent = try startAgent(timeout: "0.5")
        var stuck = try RawAgentClient(agent)
        #expect(try stuck.ask(line(Self.secretGet, id: 1))?["result"] != nil)
        keyring.pauseKeyring(true)
        defer { keyring.pauseKeyring(false) }
        try sendStuckGet(on: stuck, id: 2)
        let refused = try stuck.reader.nextJSON(timeout: .seconds(10))
        #expect(refused?.errorCode == -32007, "\(String(describing: refused))")
        let message = refused?["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("did not finish within 500 ms:"), "\(message)")
    }

    /// Many more stuck calls than the pool has threads: one storage's calls hold at most its
    /// share of the pool (half of it), the rest wait in line, requests to other storage still
    /// get a thread, and the agent's threads stay a few beyond the cores (the pool let slow
    /// calls grow it to 20 work threads before).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "needs /proc (Linux): it counts the process's threads there"))
    func manyStuckCallsHoldHalfOfABoundedPool() throws {
        let agent = try startAgent(timeout: "8")
        var warm = try RawAgentClient(agent)
        #expect(try warm.ask(line(Self.secretGet, id: 1))?["result"] != nil)
        let idleThreads = threadNames(of: agent).count
        var stuck: [RawAgentClient] = []
        for _ in 0..<24 { stuck.append(try RawAgentClient(agent)) }

        keyring.pauseKeyring(true)
        defer { keyring.pauseKeyring(false) }
        try sendStuckGet(on: stuck[0], id: 100)
        for (index, client) in stuck.enumerated().dropFirst() { client.socket.send(line(Self.secretGet, id: 100 + index)) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let poolLimit = min(cores, 8) + 4
        let share = poolLimit / 2
        try waitUntil("\(share) work threads hold stuck calls (\(threadNames(of: agent)))") {
            workThreads(of: agent) >= share
        }

        // Requests that run on the pool (a listing of scanners, a write) get a thread of their own.
        var other = try RawAgentClient(agent)
        let scanners = try other.ask(#"{"jsonrpc":"2.0","id":1,"method":"scanners"}"# + "\n", timeout: .seconds(3))
        #expect(scanners?["result"] != nil, "\(String(describing: scanners))")
        let set = try other.ask(
            #"{"jsonrpc":"2.0","id":2,"method":"set","params":{"scanner":"defaults","container":"app","key":"name","value":"Eve"}}"#
                + "\n", timeout: .seconds(3))
        #expect(set?["result"] != nil, "\(String(describing: set))")
        #expect(try other.ask(line(Self.defaultsGet, id: 3))?["result"]?["item"]?["value"]?.stringValue == "Eve")

        // Counted all the while the 24 calls are stuck or waiting, until each ends with a
        // timeout error to its own client: the work threads stay within the pool's bound, and
        // the agent's threads a few beyond what it had before.
        let most = Locked((work: 0, all: 0, names: [String]()))
        let sampling = Locked(true)
        let pid = agent.pid
        let sampler = Thread {
            while sampling.current {
                let names = Self.threadNames(of: pid)
                let work = names.filter { $0.hasPrefix("jarvis-work") }.count
                most.withLock { most in
                    if work > most.work { most.work = work }
                    if names.count > most.all { most = (most.work, names.count, names) }
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        sampler.start()
        for index in stuck.indices {
            let refused = try stuck[index].reader.nextJSON(timeout: .seconds(20))
            #expect(refused?["id"]?.int64Value == Int64(100 + index), "\(String(describing: refused))")
            #expect(refused?.errorCode == -32007, "\(String(describing: refused))")
        }
        sampling.withLock { $0 = false }
        let seen = most.current
        #expect(seen.work <= poolLimit, "\(seen.work) work threads, past the pool's bound of \(poolLimit)")
        #expect(
            seen.all <= idleThreads + poolLimit + 2, "\(seen.all) threads (\(idleThreads) before): \(seen.names)")
        #expect(agent.isAlive)
    }

    private func threadNames(of agent: AgentProcess) -> [String] {
        Self.threadNames(of: agent.pid)
    }

    private static func threadNames(of pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.map { (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? "" }
    }

    /// The agent's threads named as the work pool names them, from /proc.
    private func workThreads(of agent: AgentProcess) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(agent.pid)/task")) ?? []
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/\(agent.pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("jarvis-work")
        }.count
    }
}
