import Foundation
import JarvisCore
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

@Suite struct AgentAuthTests {
    @Test func tokenHasAtLeast128RandomBits() {
        let tokens = (0..<50).map { _ in AgentToken.random().text }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.count == 64)
            #expect(token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        let token = AgentToken("abc")
        #expect(token.matches("abc"))
        #expect(!token.matches("abd"))
        #expect(!token.matches("ab"))
        #expect(!token.matches(""))
    }

    @Test func tcpIsOffUnlessConfigured() throws {
        let fixture = try AgentFixture(tcp: false)
        #expect(fixture.agent.tcpEndpoint == nil)
        #expect(fixture.agent.token == nil)
        #expect(fixture.agent.record.tcp == nil && fixture.agent.record.token == nil)
        let hello = try fixture.raw(fixture.unix).hello(token: nil)
        #expect(hello?["result"]?["capabilities"]?["tcp"] == .bool(false))
    }

    @Test func portZeroIsReportedAndTheDiscoveryFileIsPrivate() throws {
        let fixture = try AgentFixture()
        guard case .tcp(let host, let port) = try fixture.tcp() else {
            Issue.record("not a TCP endpoint")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(port != 0)
        let runtime = fixture.folder.path + "/run"
        let files = try FileManager.default.contentsOfDirectory(atPath: runtime).filter { $0.hasSuffix(".json") }
        let file = try #require(files.first)
        let data = try Data(contentsOf: URL(fileURLWithPath: runtime + "/" + file))
        let record = try #require(AgentRecord(json: try JSONParser.parse(data)))
        #expect(record.tcp == "tcp://127.0.0.1:\(port)")
        #expect(record.token == fixture.agent.token)
        let fileMode = try FileManager.default.attributesOfItem(atPath: runtime + "/" + file)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: runtime)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test func tcpRequestsBeforeHelloAreRefusedAndRepeatedFailuresClose() throws {
        let fixture = try AgentFixture()
        let connection = try fixture.raw(try fixture.tcp())
        let ping = try connection.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        #expect(ping?.errorCode == -32001)
        #expect(ping?["id"] == .number(JSONNumber(1)))
        #expect(try connection.hello(token: "wrong")?.errorCode == -32001)
        #expect(try connection.ask(#"{"jsonrpc":"2.0","id":3,"method":"list"}"#)?.errorCode == -32001)
        // The third failure closed the connection.
        #expect(try connection.next() == nil)
    }

    @Test func theRightTokenOpensEveryMethodAndUnixNeedsNone() throws {
        let fixture = try AgentFixture()
        let token = try #require(fixture.agent.token)
        let connection = try fixture.raw(try fixture.tcp())
        #expect(try connection.hello(token: "nope")?.errorCode == -32001)
        let hello = try connection.hello(token: token)
        #expect(hello?["result"]?["capabilities"]?["auth"] == .string("token"))
        #expect(try connection.ask(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)?["result"]?["pong"] == .bool(true))

        let unix = try fixture.raw(fixture.unix)
        #expect(try unix.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?["result"]?["pong"] == .bool(true))
        #expect(try unix.hello(token: nil)?["result"]?["capabilities"]?["auth"] == .string("none"))

        let client = try JarvisClient(endpoint: try fixture.tcp(), token: token)
        #expect(try client.list().items.count == 3)
        #expect(throws: JarvisError.self) { try JarvisClient(endpoint: try fixture.tcp(), token: "bad") }
        let refused = #expect(throws: JarvisError.self) { try JarvisClient(endpoint: try fixture.tcp()) }
        #expect(refused?.code == .unauthorized)
    }

    @Test func aLocalTCPAgentsTokenIsFoundInItsDiscoveryFile() throws {
        let fixture = try AgentFixture()
        let environment = ["JARVIS_RUNTIME_DIR": fixture.folder.path + "/run"]
        #expect(AgentLocator.localToken(for: try fixture.tcp(), environment: environment) == fixture.agent.token)
        #expect(AgentLocator.localToken(for: fixture.unix, environment: environment) == nil)
        // Picking the agent by name uses its Unix socket, which needs no token.
        #expect(try AgentLocator.endpoint(for: "fixture", environment: environment) == fixture.unix)
    }

    @Test func differentMajorVersionsRefuseEachOther() throws {
        let fixture = try AgentFixture()
        let answer = try fixture.raw(fixture.unix).ask(
            #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocolVersion":"2.0"}}"#)
        #expect(answer?.errorCode == -32600)
        #expect(answer?["error"]?["message"]?.stringValue?.contains("same major version") == true)

        #expect(throws: Never.self) { try ProtocolVersion.checkAgent("1.7") }
        let error = #expect(throws: JarvisError.self) { try ProtocolVersion.checkAgent("2.0") }
        #expect(error?.message.contains("agent speaks protocol 2.0") == true)

        // A real server that answers like a future agent: the client refuses it.
        let folder = try TemporaryFolder()
        let server = LineServer(endpoints: [.unix(path: folder.socketPath())]) { _ in FutureAgentSession() }
        try server.start()
        defer { server.stop() }
        let refused = #expect(throws: JarvisError.self) { try JarvisClient(endpoint: .unix(path: folder.socketPath())) }
        #expect(refused?.message.contains("same major version") == true)
    }
}

/// Answers `hello` the way an agent of protocol 2 would.
private final class FutureAgentSession: LineSession {
    func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
        let id = (try? JSONParser.parse(line))?["id"] ?? .null
        connection.send(RPCResponse.success(id: id, result: .object(["protocol": "jarvis", "protocolVersion": "2.0"])))
    }
    func lineTooLong(on connection: LineConnection) -> [UInt8]? { nil }
    func closed(_ connection: LineConnection) {}
}
