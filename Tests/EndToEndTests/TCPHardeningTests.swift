import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// The TCP listener tried as an attacker would, against the real `jarvis-agent` and `jarvis`.
@Suite(.serialized) struct TCPHardeningTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Ada"])
    }

    @Test func silentConnectionsCannotLockOutAClientWithTheToken() throws {
        let agent = try AgentProcess(
            sandbox, ["--defaults-dir", folder.path, "--listen", "0", "--auth-timeout", "2"])
        let tcp = try agent.tcp()
        let token = try #require(agent.record.token)
        // As many silent connections as the agent serves clients at once.
        let silent = try (0..<64).map { _ in try agent.socket(tcp) }
        defer { for socket in silent { socket.close() } }

        let get = try sandbox.jarvis(
            "--agent", tcp.description, "--token", token, "get", "com.example.app", "user_name")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout.contains("Ada"))

        // Every silent connection is closed: displaced by newer ones, or at the deadline.
        for socket in silent {
            var reader = LineReader(socket)
            #expect(try reader.next(timeout: .seconds(30)) == nil)
        }
        #expect(agent.isAlive)
    }

    @Test func everyFailedHelloCountsTowardTheClose() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--listen", "0"])
        let socket = try agent.socket(try agent.tcp())
        defer { socket.close() }
        var reader = LineReader(socket)
        let attempts = [
            #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocolVersion":"9.0","token":"x"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"hello","params":{"client":"probe","extra":1}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"hello","params":{"protocolVersion":"2.0"}}"#,
        ]
        for attempt in attempts {
            socket.send(attempt + "\n")
            let answer = try #require(try reader.nextJSON())
            #expect(answer.errorCode != nil, "\(attempt)")
        }
        // The third failure closed the connection.
        #expect(try reader.next() == nil)
    }
}
