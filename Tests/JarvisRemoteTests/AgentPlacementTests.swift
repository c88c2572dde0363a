import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// Any runtime folder works, however long its path: the agent serves from a short private
/// folder, or from loopback TCP with its token, and clients find it by name with no flag.
@Suite struct AgentPlacementTests {
    /// A private runtime folder whose path is longer than any Unix socket path may be.
    static func longRuntime(in folder: TemporaryFolder) throws -> String {
        let runtime = folder.path + "/" + String(repeating: "a", count: 100) + "/" + String(repeating: "b", count: 100)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        #expect(runtime.utf8.count > 200)
        return runtime
    }

    @Test func aLongRuntimeFolderGetsAShortPrivateSocketFolder() throws {
        let folder = try TemporaryFolder()
        let runtime = try Self.longRuntime(in: folder)
        let agent = try JarvisAgent.start(
            scanners: [MemoryScanner(id: "memory", contents: ["app": ["k": .integer(1)]])],
            options: .init(
                name: "long-\(UUID().uuidString.prefix(6))", runtimeDirectory: URL(fileURLWithPath: runtime),
                journalFolder: URL(fileURLWithPath: runtime + "/journal"))
        )
        let shortFolder = (agent.socketPath as NSString).deletingLastPathComponent
        #expect(agent.socketPath.hasPrefix("/tmp/jarvis-\(getuid())."))
        #expect(PrivatePath.folderProblem(shortFolder) == nil)
        #expect(agent.record.socket == agent.socketPath)
        #expect(agent.record.token == nil)
        let environment = ["JARVIS_RUNTIME_DIR": runtime, "HOME": folder.path]
        let endpoint = try AgentLocator.endpoint(for: agent.record.name, environment: environment)
        #expect(endpoint == .unix(path: agent.socketPath))
        #expect(try JarvisClient(endpoint: endpoint).list().items.count == 1)
        agent.stop()
        #expect(!FileManager.default.fileExists(atPath: shortFolder))
    }

    @Test func withoutAShortFolderTheAgentServesLoopbackTCPWithItsToken() throws {
        let folder = try TemporaryFolder()
        let runtime = try Self.longRuntime(in: folder)
        var options = JarvisAgent.Options(name: "loop-\(UUID().uuidString.prefix(6))")
        options.runtimeDirectory = URL(fileURLWithPath: runtime)
        options.journalFolder = URL(fileURLWithPath: runtime + "/journal")
        options.shortSocketParent = folder.path + "/missing"
        let agent = try JarvisAgent.start(
            scanners: [MemoryScanner(id: "memory", contents: ["app": ["k": .integer(1)]])], options: options)
        defer { agent.stop() }
        #expect(agent.record.socket == nil)
        let tcp = try #require(agent.tcpEndpoint)
        guard case .tcp(let host, _) = tcp else { throw SocketError(operation: "not TCP") }
        #expect(host == "127.0.0.1")
        #expect(agent.record.tcp == tcp.description)
        #expect(agent.endpoint == tcp)
        let environment = ["JARVIS_RUNTIME_DIR": runtime, "HOME": folder.path]
        let endpoint = try AgentLocator.endpoint(for: agent.record.name, environment: environment)
        #expect(endpoint == tcp)
        let token = try #require(AgentLocator.localToken(for: endpoint, environment: environment))
        #expect(try JarvisClient(endpoint: endpoint, token: token).list().items.count == 1)
        #expect(throws: JarvisError.self) { try JarvisClient(endpoint: endpoint) }
    }

    @Test func aStaleShortSocketFolderGoesWithItsRecord() throws {
        let folder = try TemporaryFolder()
        let runtime = folder.path + "/run"
        PrivatePath.makeFolder(runtime)
        let short = try #require(PrivatePath.makeUniqueFolder(in: "/tmp", prefix: AgentPlacement.shortPrefix))
        let listener = try Socket.listen(on: .unix(path: short + "/1.sock"))
        listener.close()
        try Data(#"{"pid":999999,"name":"gone","socket":"\#(short)/1.sock"}"#.utf8)
            .write(to: URL(fileURLWithPath: runtime + "/1.json"))
        #expect(try AgentDirectory.running(environment: ["JARVIS_RUNTIME_DIR": runtime, "HOME": folder.path]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: short))
    }
}
