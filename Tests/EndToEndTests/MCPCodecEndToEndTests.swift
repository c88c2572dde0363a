import Foundation
import JarvisTestSupport
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

/// `jarvis mcp` and `jarvis-agent` read lines with one codec: the same hostile line gets the
/// same error object from the agent's socket and from the MCP server's standard output, both
/// real binaries.
@Suite(.serialized) struct MCPCodecEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("app.suite", in: folder, ["count": 42])
    }

    private func startAgent() throws -> AgentProcess {
        try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--name", "codec"])
    }

    /// Lines no client library would send, with the id the agent answers each under and the
    /// id `jarvis mcp` does: the agent answers a line it cannot parse under null, as JSON-RPC
    /// 2.0 says; MCP's rules recover the id from the line's start, since an MCP client waits
    /// on every request. The error itself is the same.
    static let hostile: [(name: String, line: [UInt8], agentID: JSONValue, mcpID: JSONValue)] = [
        ("not JSON", Array("this is not json".utf8), .null, .null),
        (
            "invalid UTF-8",
            Array(#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":""#.utf8) + [0xFF, 0xFE]
                + Array(#""}}"#.utf8),
            .null, 2
        ),
        ("batch array", Array(#"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#.utf8), .null, .null),
        ("wrong jsonrpc version", Array(#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#.utf8), 4, 4),
        (
            "nested too deep",
            Array(
                (#"{"jsonrpc":"2.0","id":"deep-5","method":"ping","params":{"v":"#
                    + String(repeating: "[", count: 1_000)
                    + String(repeating: "]", count: 1_000) + "}}").utf8),
            .null, "deep-5"
        ),
        ("cut short", Array(#"{"jsonrpc":"2.0","id":6,"method":"pi"#.utf8), .null, 6),
        ("params not an object", Array(#"{"jsonrpc":"2.0","id":7,"method":"ping","params":[1]}"#.utf8), 7, 7),
        ("method not a string", Array(#"{"jsonrpc":"2.0","id":"eight","method":8}"#.utf8), "eight", "eight"),
        ("not an object", Array("42".utf8), .null, .null),
    ]

    @Test func aHostileLineGetsTheSameErrorFromTheAgentAndFromJarvisMCP() throws {
        let agent = try startAgent()
        let socket = try agent.socket()
        var reader = LineReader(socket)
        var fromAgent: [JSONValue] = []
        for (_, line, _, _) in Self.hostile {
            try socket.writeAll(line + [0x0A])
            fromAgent.append(try #require(try reader.nextJSON()))
        }
        let fromMCP = try sandbox.mcpSession(bytes: Array(Self.hostile.map(\.line).joined(separator: [0x0A])) + [0x0A])
        #expect(fromMCP.count == Self.hostile.count)
        for ((name, _, agentID, mcpID), (agentAnswer, mcpAnswer)) in zip(Self.hostile, zip(fromAgent, fromMCP)) {
            #expect(agentAnswer["id"] == agentID, "\(name): \(agentAnswer)")
            #expect(mcpAnswer["id"] == mcpID, "\(name): \(mcpAnswer)")
            #expect(agentAnswer["error"] != nil && agentAnswer["error"] == mcpAnswer["error"], "\(name)")
        }
    }

    /// The one difference the faces' rules allow: MCP ids are never null nor fractions. Both
    /// refuse an id of the wrong kind alike; only the list of kinds differs.
    @Test func anIDOfTheWrongKindIsRefusedByBothAndANullIDOnlyByMCP() throws {
        let agent = try startAgent()
        let socket = try agent.socket()
        var reader = LineReader(socket)
        let lines = [
            #"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        ]
        var fromAgent: [JSONValue] = []
        for line in lines {
            try socket.writeAll(Array((line + "\n").utf8))
            fromAgent.append(try #require(try reader.nextJSON()))
        }
        let fromMCP = try sandbox.mcpSession(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(fromAgent[0]["error"]?["code"] == -32600 && fromMCP[0]["error"]?["code"] == -32600)
        #expect(fromAgent[0]["error"]?["data"] == fromMCP[0]["error"]?["data"])
        #expect(fromAgent[0]["error"]?["message"] == #""id" must be a string, a number or null"#)
        #expect(fromMCP[0]["error"]?["message"] == #""id" must be a string or a whole number"#)
        #expect(fromAgent[1]["result"]?["pong"] == true)
        #expect(fromMCP[1]["error"]?["code"] == -32600 && fromMCP[1]["id"] == .null)
    }

    /// A line over the limit: both faces frame with the agent's `LineFramer` and answer with
    /// its `tooLarge` error (the agent under null, MCP under the id the line's start shows); only
    /// the limit differs (the agent's 1 MiB, the MCP server's 4 MiB). The agent then closes;
    /// `jarvis mcp` carries on.
    @Test func aLineOverTheLimitGetsTheSameError() throws {
        let line = Array(
            (#"{"jsonrpc":"2.0","id":"big","method":"ping","params":{"v":""# + String(repeating: "x", count: 5_000_000)
                + #""}}"#).utf8)
        let agent = try startAgent()
        let socket = try agent.socket()
        // The agent answers and closes before it has read the whole line: write from elsewhere.
        Thread.detachNewThread { try? socket.writeAll(line + [0x0A]) }
        var reader = LineReader(socket)
        let fromAgent = try #require(try reader.nextJSON())
        let fromMCP = try sandbox.mcpSession(
            bytes: line + Array("\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".utf8))
        #expect(fromAgent["id"] == .null && fromMCP.first?["id"] == "big")
        #expect(fromAgent["error"]?["code"] == -32006 && fromAgent["error"]?["data"]?["code"] == "tooLarge")
        #expect(fromMCP.first?["error"]?["code"] == fromAgent["error"]?["code"])
        #expect(fromMCP.first?["error"]?["data"] == fromAgent["error"]?["data"])
        let agentMessage = try #require(fromAgent["error"]?["message"]?.stringValue)
        let mcpMessage = try #require(fromMCP.first?["error"]?["message"]?.stringValue)
        #expect(agentMessage.contains("\(1 << 20) bytes") && mcpMessage.contains("\(4 << 20) bytes"))
        #expect(mcpMessage.replacingOccurrences(of: "\(4 << 20)", with: "\(1 << 20)") == agentMessage)
        #expect(fromMCP.last?["id"] == 1 && fromMCP.last?["result"] == .object([:]))
        #expect(try reader.next() == nil)
    }
}

extension Sandbox {
    /// Runs `jarvis mcp`, writes `bytes` to its standard input, closes it and returns every
    /// line of its standard output, parsed; the server must end cleanly.
    /// - Parameter folder: the folder it runs in (the project folder of `diff_snapshots`).
    func mcpSession(bytes: [UInt8], arguments: [String] = [], folder: URL? = nil) throws -> [JSONValue] {
        let process = Process()
        if let folder { process.currentDirectoryURL = folder }
        process.executableURL = try Binaries.url("jarvis")
        process.arguments = ["mcp"] + arguments
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            writer.writeQuietly(bytes)
            try? writer.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }
}
