import Foundation
import Testing

/// `jarvis --agent tcp://… --token …` and `jarvis history` against the real binaries.
@Suite(.serialized) struct RemoteCLITests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        var values: [String: Any] = ["user_name": "Ada"]
        for index in 0..<1200 { values[String(format: "key_%04d", index)] = index }
        try sandbox.writeSuite("com.example.app", in: folder, values)
    }

    @Test func everyCommandWorksOverTCPWithTheTokenAndHistoryShowsIt() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--listen", "0"])
        let tcp = try agent.tcp().description
        #expect(tcp.hasPrefix("tcp://127.0.0.1:"))
        let token = try #require(agent.record.token)

        let set = try sandbox.jarvis("--agent", tcp, "--token", token, "set", "com.example.app", "user_name", "Grace")
        #expect(set.status == 0, "\(set.stderr)")
        let get = try sandbox.jarvis("--agent", tcp, "--token", token, "get", "com.example.app", "user_name")
        #expect(get.stdout == "Grace\n")
        // ls pages through the 1,201 keys transparently.
        let listing = try sandbox.jarvis("--agent", tcp, "--token", token, "ls", "--json")
        let parsed = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any]
        #expect((parsed?["items"] as? [Any])?.count == 1201)
        let removed = try sandbox.jarvis("--agent", tcp, "--token", token, "rm", "com.example.app", "key_0001")
        #expect(removed.status == 0)

        let wrong = try sandbox.jarvis("--agent", tcp, "--token", "0123", "ls")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("wrong token"))

        let history = try sandbox.jarvis("history", "--audit")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("set") && history.stdout.contains("user_name"))
        #expect(history.stdout.contains("jarvis-cli (tcp 127.0.0.1:"))
        let deletes = try sandbox.jarvis("history", "--action", "delete", "--json")
        let records =
            (try JSONSerialization.jsonObject(with: Data(deletes.stdout.utf8)) as? [String: Any])?["records"]
            as? [[String: Any]]
        #expect(records?.count == 1)
        #expect(records?.first?["key"] as? String == "key_0001")
        #expect(records?.first?["newRevision"] == nil)
    }

    @Test func listenRefusesHostNames() throws {
        let result = try sandbox.run(try Binaries.url("jarvis-agent"), ["--demo", "--listen", "example.com:7777"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("IP address"))
    }
}
