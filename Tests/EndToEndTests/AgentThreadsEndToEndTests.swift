import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// The transport serves every connection from one readiness loop per transport: idle clients
/// cost the agent descriptors, not threads.
@Suite(.serialized) struct AgentThreadsEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    /// The agent's threads, from /proc.
    private func threads(of agent: AgentProcess) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(agent.pid)/task").count) ?? -1
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "needs /proc (Linux): it counts the process's threads there"))
    func sixtyFourIdleClientsCostAHandfulOfThreads() throws {
        let suites = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: suites, ["name": "Ada"])
        let agent = try AgentProcess(
            sandbox, ["--defaults-dir", suites.path, "--listen", "127.0.0.1:0", "--max-connections", "80"])
        let token = try #require(agent.record.token)
        let before = threads(of: agent)
        var clients: [JarvisClient] = []
        defer { for client in clients { client.close() } }
        // 64 idle clients on the Unix socket and 8 on TCP, each having said hello and asked once.
        for index in 0..<72 {
            let endpoint = index < 64 ? agent.unix : try agent.tcp()
            let client = try JarvisClient(endpoint: endpoint, clientName: "idle-\(index)", token: token)
            try client.ping()
            clients.append(client)
        }
        let during = threads(of: agent)
        // One loop per transport, the watch queue, and whatever the runtime keeps: a handful.
        #expect(during <= 8, "the agent runs \(during) threads with 72 idle clients (\(before) before)")
        #expect(during - before <= 2, "\(before) threads before, \(during) with 72 idle clients")
        // And every one of them is still served.
        for client in clients { try client.ping() }
        #expect(agent.answersANewClient())
    }
}
