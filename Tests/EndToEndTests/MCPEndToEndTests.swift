import Foundation
import JarvisCore
import Testing

/// `jarvis mcp` against real agents, driven by the official MCP Python SDK
/// (Tests/MCPClient/mcp_client_test.py) and, for bytes no SDK would send, by raw lines.
@Suite(.serialized) struct MCPEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    static let clientName = "jarvis-e2e-client"

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite(
            "app.suite", in: folder, ["count": 42, "name": "Ada", "profile": ["port": 8080, "host": "example.org"]])
    }

    @Test(.enabled(if: MCPPython.shouldRun, MCPPython.skipHint)) func initializeListsAndCallsEveryToolAndAuditsTheClientName() throws {
        let files = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(
            at: files.appendingPathComponent("env"), withIntermediateDirectories: true)
        try Data(#"{"port": 443}"#.utf8).write(to: files.appendingPathComponent("env/prod.json"))
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--files", files.path, "--name", "app"])
        try runScenario("tools")
        // The audit trail, read with the CLI, names the MCP client from `initialize`.
        let history = try sandbox.jarvis("history", "--audit", "--json")
        let records = try #require(
            (try JSONParser.parse(Array(history.stdout.utf8)))["records"]?.arrayValue, "\(history.stderr)")
        #expect(records.count >= 8)
        #expect(records.allSatisfy { $0["client"] == .string(Self.clientName) })
    }

    @Test(.enabled(if: MCPPython.shouldRun, MCPPython.skipHint)) func aProductionAgentGetsNoWritingToolsAndTheClientHearsOfChanges() throws
    {
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--name", "prod", "--production"])
        try runScenario("production", ["AGENT_NAME": "prod"])
        let values = try sandbox.readSuite("app.suite", in: folder)
        #expect(values["x"] == nil)
    }

    @Test(.enabled(if: MCPPython.shouldRun, MCPPython.skipHint)) func aSubscriptionHearsOfAChangeMadeWithTheCLI() throws {
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--name", "app"])
        try runScenario("subscription")
    }

    @Test(.enabled(if: MCPPython.shouldRun, MCPPython.skipHint)) func badInputIsAnsweredWithErrorsAndTheServerStaysUp() throws {
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--name", "app"])
        try runScenario("bad-input")
    }

    @Test(.enabled(if: MCPPython.shouldRun, MCPPython.skipHint)) func anAgentChosenByNameRestartsWithEditingAndTheToolsFollow() throws {
        try runScenario("restart", ["PHOENIX_DIR": folder.path])
    }

    @Test(.enabled(if: MCPPython.shouldRun, MCPPython.skipHint)) func secretsStayMaskedUnlessBothTheServerAndTheAgentAllowReveal() throws {
        let secrets = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        try Data("hunter2".utf8).write(to: secrets.appendingPathComponent("db_password"))
        let agent = try AgentProcess(sandbox, ["--secrets-dir", secrets.path, "--name", "vault"])
        try runScenario("secrets")
        try runScenario("secrets", arguments: ["--allow-reveal"])  // the agent does not allow reveal: still masked
        agent.process.terminate()
        agent.process.waitUntilExit()
        _ = try AgentProcess(sandbox, ["--secrets-dir", secrets.path, "--name", "vault", "--allow-reveal"])
        try runScenario("secrets")
        try runScenario("secrets", arguments: ["--allow-reveal"], expectReveal: true)
    }

    /// Lines the SDK never sends: not JSON, a batch, no `jsonrpc`, a request before
    /// `initialize`, a line over the limit (its `id` is still answered). Standard output holds
    /// only protocol messages, and the server ends when its input does.
    @Test func malformedLinesGetJSONRPCErrorsOnAnOtherwiseCleanStdout() throws {
        let huge =
            "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\",\"params\":{\"name\":\"set_preference\",\"arguments\":{\"value\":\""
            + String(repeating: "z", count: 5_000_000) + "\"}}}"
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
            "this is not json",
            #"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#,
            #"{"id":4,"method":"ping"}"#,
            huge,
            #"{"jsonrpc":"2.0","id":5,"method":"no/such/method"}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_preference","arguments":{"key":7}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"set_preference","arguments":{"value":"#
                + String(repeating: "[", count: 300) + "]}}}",
        ]
        let answers = try rawSession(lines)
        let byID = Dictionary(answers.compactMap { answer in answer["id"]?.int64Value.map { ($0, answer) } }) { a, _ in
            a
        }
        #expect(answers.allSatisfy { $0["jsonrpc"] == "2.0" })
        #expect(byID[1]?["error"]?["code"]?.int64Value == -32600)
        #expect(byID[2]?["result"]?["protocolVersion"] == "2025-06-18")
        let anonymous = answers.filter { $0["id"] == .null }.compactMap { $0["error"]?["code"]?.int64Value }
        #expect(anonymous == [-32700, -32600])
        #expect(byID[4]?["error"]?["code"]?.int64Value == -32600)
        // The agent's own answer to a line over its limit (tooLarge), under the line's id.
        #expect(byID[77]?["error"]?["code"]?.int64Value == -32006)
        #expect(byID[77]?["error"]?["data"]?["code"] == "tooLarge")
        #expect(byID[77]?["error"]?["message"]?.stringValue?.contains("limit") == true)
        #expect(byID[5]?["error"]?["code"]?.int64Value == -32601)
        // 2025-06-18 answers invalid arguments as a protocol error.
        #expect(byID[6]?["error"]?["code"]?.int64Value == -32602)
        #expect(byID[7]?["result"] == .object([:]))
        // Nested too deep to parse, yet answered under its id.
        #expect(byID[8]?["error"]?["code"]?.int64Value == -32700)
    }

    /// Valid messages cut, flipped and sprinkled with stray bytes (invalid UTF-8 included):
    /// every answer is a JSON-RPC message, and the last ping is still answered.
    @Test func mangledLinesNeverStopTheServer() throws {
        let seeds = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_preference","arguments":{"container":"c","key":"k","pointer":"/a/0"}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"jarvis://a%20b/defaults/c%2Fd"}}"#,
            #"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"diff_snapshots","arguments":{"from":{"format":"jarvis-snapshot","version":1,"items":[{}]},"to":"agent"}}}"#,
        ]
        var generator = SeededGenerator(seed: 12)
        var lines: [[UInt8]] = [Array(seeds[0].utf8)]
        for _ in 0..<400 {
            var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &generator)].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes = Array(bytes[..<index])
                case 1: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                default: bytes.insert(UInt8.random(in: 0x80...0xFF, using: &generator), at: index)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            lines.append(bytes.map { $0 == 0x0A ? 0x20 : $0 })
        }
        lines.append(Array(#"{"jsonrpc":"2.0","id":9999,"method":"ping"}"#.utf8))
        let answers = try rawSession(bytes: lines.joined(separator: [0x0A]) + [0x0A])
        #expect(answers.allSatisfy { $0["jsonrpc"] == "2.0" && ($0["result"] != nil || $0["error"] != nil) })
        #expect(answers.last?["id"] == 9999 && answers.last?["result"] == .object([:]))
    }

    private func runScenario(
        _ name: String, _ extra: [String: String] = [:], arguments: [String] = [], expectReveal: Bool = false
    ) throws {
        let python = try MCPPython.interpreter()
        sandbox.environmentOverrides["JARVIS_BIN"] = try Binaries.url("jarvis").path
        sandbox.environmentOverrides["JARVIS_AGENT_BIN"] = try Binaries.url("jarvis-agent").path
        sandbox.environmentOverrides["SUITE"] = "app.suite"
        sandbox.environmentOverrides["MCP_CLIENT_NAME"] = Self.clientName
        for (key, value) in extra { sandbox.environmentOverrides[key] = value }
        sandbox.environmentOverrides["EXPECT_REVEAL"] = expectReveal ? "1" : "0"
        let result = try sandbox.run(python, [MCPPython.script.path, name] + arguments)
        #expect(result.status == 0, "scenario \(name) failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.hasSuffix("ok\n"))
    }

    /// Runs `jarvis mcp`, writes `lines`, closes its input and returns every answer.
    private func rawSession(_ lines: [String]) throws -> [JSONValue] {
        try rawSession(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    private func rawSession(bytes: [UInt8]) throws -> [JSONValue] {
        try sandbox.mcpSession(bytes: bytes)
    }
}

/// The Python with the MCP SDK: `JARVIS_MCP_PYTHON`, else `.build/mcp-venv/bin/python` in
/// the package (what `.ci/run` makes: `python3 -m venv .build/mcp-venv && .build/mcp-venv/bin/pip install mcp`).
enum MCPPython {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Tests/MCPClient/mcp_client_test.py")

    static var candidate: URL {
        if let path = ProcessInfo.processInfo.environment["JARVIS_MCP_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.appendingPathComponent(".build/mcp-venv/bin/python")
    }

    /// Locally the SDK tests are skipped without the venv; in CI (`CI` set) they run and fail.
    static var shouldRun: Bool {
        FileManager.default.isExecutableFile(atPath: candidate.path) || ProcessInfo.processInfo.environment["CI"] != nil
    }

    /// What a skipped SDK test prints: how to get the SDK, or which variable to set.
    static var skipHint: Comment {
        Comment(
            rawValue:
                "needs the MCP Python SDK at \(candidate.path): python3 -m venv .build/mcp-venv && .build/mcp-venv/bin/pip install mcp (as .ci/run does), or set JARVIS_MCP_PYTHON to a Python that has it"
        )
    }

    static func interpreter() throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw HarnessError(
                "no Python with the MCP SDK at \(candidate.path); run `python3 -m venv .build/mcp-venv && .build/mcp-venv/bin/pip install mcp` (as .ci/run does) or set JARVIS_MCP_PYTHON"
            )
        }
        return candidate
    }
}

/// A small deterministic generator (SplitMix64), so a failing mangled line can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
