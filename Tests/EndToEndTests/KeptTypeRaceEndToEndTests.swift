import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// `set` without a type reads the place, then writes the value as the type it read: another
/// writer that changes the type in between must make the write answer `conflict`, not be
/// overwritten with the type read before (issue 28 item 1). The change lands between the
/// read and the write every time: a relay in front of the real agent makes it just before it
/// passes the real client's `set` on.
@Suite(.serialized) struct KeptTypeRaceEndToEndTests {
    let sandbox: Sandbox
    let files: URL
    let agent: AgentProcess

    init() throws {
        sandbox = try Sandbox()
        files = sandbox.root.appendingPathComponent("json")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(#"{"port": 8080, "database": {"pool": {"max": 10}}}"#.utf8).write(
            to: files.appendingPathComponent("service.json"))
        agent = try AgentProcess(sandbox, ["--files", files.path])
    }

    /// A relay whose hook stores `"abc"` at `place` through its own connection to the agent.
    private func proxy(changing place: Wire.Place) throws -> RaceProxy {
        let socket = try #require(agent.record.socket)
        let proxy = try RaceProxy(path: sandbox.root.appendingPathComponent("relay.sock").path, agentSocket: socket) {
            let other = try? JarvisClient(endpoint: .unix(path: socket), clientName: "other", timeout: .seconds(20))
            _ = try? other?.set(place, to: .string("abc"))
            other?.close()
        }
        sandbox.environmentOverrides["JARVIS_AGENT"] = proxy.path
        return proxy
    }

    private func file() throws -> JSONValue {
        try JSONParser.parse(String(decoding: Data(contentsOf: files.appendingPathComponent("service.json")), as: UTF8.self))
    }

    @Test func theCLIsWriteAnswersAConflictWhenTheTypeChangedSinceItsRead() throws {
        let relay = try proxy(changing: Wire.Place(container: "service.json", key: "port"))
        let set = try sandbox.jarvis("set", "service.json", "port", "9090")
        #expect(set.status != 0 && set.stderr.contains("changed since revision"), "\(set.status) \(set.stderr)")
        #expect(try file()["port"] == .string("abc"))
        withExtendedLifetime(relay) {}
    }

    @Test func aPointerWriteIsGuardedByTheWholeValuesRevision() throws {
        let relay = try proxy(
            changing: Wire.Place(container: "service.json", key: "database", pointer: try JSONPointer(parsing: "/pool/max")))
        let set = try sandbox.jarvis("set", "service.json", "/database/pool/max", "20")
        #expect(set.status != 0 && set.stderr.contains("changed since revision"), "\(set.status) \(set.stderr)")
        #expect(try file()["database"]?["pool"]?["max"] == .string("abc"))
        withExtendedLifetime(relay) {}
    }

    @Test func aNewKeyCreatedByAnotherWriterMeanwhileIsNotOverwritten() throws {
        let relay = try proxy(changing: Wire.Place(container: "service.json", key: "retries"))
        let set = try sandbox.jarvis("set", "service.json", "retries", "3")
        #expect(set.status != 0 && set.stderr.contains("changed since revision"), "\(set.status) \(set.stderr)")
        #expect(try file()["retries"] == .string("abc"))
        withExtendedLifetime(relay) {}
    }

    @Test func mcpSetPreferenceAnswersAConflictToo() throws {
        let relay = try proxy(changing: Wire.Place(container: "service.json", key: "port"))
        let lines = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"race","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_preference","arguments":{"container":"service.json","key":"port","value":"9090"}}}"#,
        ]
        let answers = try sandbox.mcpSession(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        let result = try #require(answers.first { $0["id"]?.int64Value == 1 }?["result"])
        let text = result["content"]?.arrayValue?.first?["text"]?.stringValue ?? ""
        #expect(result["isError"] == .bool(true) && text.contains("changed since revision"), "\(text)")
        #expect(try file()["port"] == .string("abc"))
        withExtendedLifetime(relay) {}
    }
}
