import Foundation
import JarvisCore
import JarvisScanners
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// A real in-process agent on a private runtime folder, with a memory scanner and optionally
/// TCP on a free loopback port; stopped when released.
final class AgentFixture {
    let folder: TemporaryFolder
    let agent: JarvisAgent
    let memory: MemoryScanner
    let secrets: MemoryScanner

    init(
        configuration: JarvisConfiguration = .debug, tcp: Bool = true,
        contents: [String: [String: PreferenceValue]] = ["app": ["name": .string("Ada"), "count": .integer(1)]],
        options: (inout JarvisAgent.Options) -> Void = { _ in }
    ) throws {
        folder = try TemporaryFolder()
        memory = MemoryScanner(id: "memory", contents: contents)
        secrets = MemoryScanner(id: "vault", isSecret: true, contents: ["keys": ["api": .string("sk-123456")]])
        var settings = JarvisAgent.Options(
            name: "fixture", runtimeDirectory: URL(fileURLWithPath: folder.path + "/run"),
            tcp: tcp ? .tcp(host: "127.0.0.1", port: 0) : nil)
        // The journal in the fixture's folder, never the user's state folder.
        settings.journalFolder = URL(fileURLWithPath: folder.path + "/journal")
        options(&settings)
        agent = try JarvisAgent.start(configuration: configuration, scanners: [memory, secrets], options: settings)
    }

    deinit { agent.stop() }

    var unix: Endpoint { .unix(path: agent.socketPath) }

    func tcp() throws -> Endpoint {
        guard let endpoint = agent.tcpEndpoint else { throw SocketError(operation: "fixture", detail: "TCP is off") }
        return endpoint
    }

    /// A raw line connection, for requests the client library would never send.
    func raw(_ endpoint: Endpoint) throws -> RawConnection {
        RawConnection(try LineClient(endpoint: endpoint, timeout: .seconds(10)))
    }
}

/// Sends lines exactly as given and decodes the answers loosely, to assert on the wire form.
struct RawConnection {
    let client: LineClient

    init(_ client: LineClient) { self.client = client }

    /// Sends one line and returns the parsed answer; nil when the agent closed the connection.
    func ask(_ line: String) throws -> JSONValue? {
        try client.send(Array(line.utf8))
        return try next()
    }

    func next() throws -> JSONValue? {
        guard let answer = try client.receiveLine(timeout: .seconds(10)) else { return nil }
        return try JSONParser.parse(answer)
    }

    /// `hello` with this token (or none).
    func hello(token: String?) throws -> JSONValue? {
        let param = token.map { #","token":"\#($0)""# } ?? ""
        return try ask(
            #"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"client":"raw","protocolVersion":"1.0"\#(param)}}"#)
    }
}

extension JSONValue {
    /// `error.code` of an answer, or nil for a success.
    var errorCode: Int64? { self["error"]?["code"]?.int64Value }
}
