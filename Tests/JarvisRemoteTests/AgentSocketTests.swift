import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// The agent over a real Unix socket: every value type round-trips, and bad input on a raw
/// connection is answered or dropped cleanly while the agent keeps serving.
@Suite struct AgentSocketTests {
    let folder: TemporaryFolder
    let agent: JarvisAgent
    let scanner: MemoryScanner

    init() throws {
        folder = try TemporaryFolder()
        scanner = MemoryScanner(id: "memory", contents: ["app": ["name": "Ada", "count": 3]])
        var options = JarvisAgent.Options(name: "socket-test", maxLineLength: 4096)
        options.runtimeDirectory = URL(fileURLWithPath: folder.path)
        options.journalFolder = URL(fileURLWithPath: folder.path + "/journal")
        agent = try JarvisAgent.start(scanners: [scanner], options: options)
    }

    func raw() throws -> LineClient {
        try LineClient(endpoint: .unix(path: agent.socketPath), timeout: .seconds(10))
    }

    func exchange(_ client: LineClient, _ line: String) throws -> JSONValue {
        try client.send(Array(line.utf8))
        guard let answer = try client.receiveLine(timeout: .seconds(10)) else {
            throw JarvisError(.unavailable, "connection closed")
        }
        return try JSONParser.parse(answer)
    }

    func errorName(_ answer: JSONValue) -> String? {
        answer["error"]?["data"]?["code"]?.stringValue
    }

    func pingWorks(_ client: LineClient) throws -> Bool {
        try exchange(client, #"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)["result"]?["pong"] == .bool(true)
    }

    @Test func everyValueTypeRoundTripsLosslesslyOverTheSocket() throws {
        defer { agent.stop() }
        let client = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        let values: [PreferenceValue] = [
            "text ✓", .integer(.min), .real(2.5), .real(3), .real(-.infinity), true,
            .date(Date(timeIntervalSinceReferenceDate: 727_000_000.123_456_7)), .data(Data([0, 255, 10])),
            [1, 1.5, "x", .date(Date(timeIntervalSinceReferenceDate: 5))],
            [
                "$weird": ["deep": [.data(Data([1])), ["when": .date(Date(timeIntervalSinceReferenceDate: -1.25))]]],
                "n": 1.0,
            ],
        ]
        for (index, value) in values.enumerated() {
            let address = PreferenceAddress(scanner: "memory", container: "app", key: "k\(index)")
            let written = try client.set(address, to: value)
            #expect(scanner.contents["app"]?["k\(index)"] == value)
            let read = try client.get(address)
            #expect(read.value == value)
            #expect(read.type == value.type)
            #expect(read.revision == written.revision)
            // Written back unchanged, the stored value is unchanged.
            try client.set(address, to: try #require(read.value), expectedRevision: read.revision)
            #expect(scanner.contents["app"]?["k\(index)"] == value)
            #expect(try client.get(address).revision == read.revision)
        }
    }

    @Test func malformedLinesGetErrorsAndTheConnectionStillAnswers() throws {
        defer { agent.stop() }
        let client = try raw()
        let cases: [(String, String)] = [
            ("not json", "parseError"),
            (#"{"jsonrpc":"2.0","id":1,"method":"get""#, "parseError"),
            ("[]", "invalidRequest"),
            (#"{"jsonrpc":"2.0","id":2,"method":"frobnicate"}"#, "methodNotFound"),
            (#"{"jsonrpc":"2.0","id":3,"method":"get","params":{"container":7,"key":"name"}}"#, "invalidParams"),
            (#"{"jsonrpc":"2.0","id":4,"method":"get","params":{"container":"app"}}"#, "invalidParams"),
            (
                #"{"jsonrpc":"2.0","id":5,"method":"get","params":{"container":"app","key":"name","extra":1}}"#,
                "invalidParams"
            ),
            (#"{"jsonrpc":"2.0","id":6,"method":"get","params":[1]}"#, "invalidParams"),
            (#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#, "invalidRequest"),
            (#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, "invalidRequest"),
            (
                #"{"jsonrpc":"2.0","id":8,"method":"set","params":{"container":"app","key":"x","type":"integer","value":"five"}}"#,
                "typeMismatch"
            ),
            (
                #"{"jsonrpc":"2.0","id":9,"method":"set","params":{"container":"app","key":"x","value":null}}"#,
                "typeMismatch"
            ),
            (
                #"{"jsonrpc":"2.0","id":10,"method":"get","params":{"scanner":"nope","container":"app","key":"x"}}"#,
                "notFound"
            ),
        ]
        for (line, expected) in cases {
            let answer = try exchange(client, line)
            #expect(errorName(answer) == expected, "\(line) → \(answer)")
            #expect(answer["error"]?["message"]?.stringValue?.isEmpty == false)
        }
        // Non-UTF-8 bytes.
        try client.send([0x7B, 0xFF, 0xFE, 0x7D])
        let answer = try JSONParser.parse(try #require(try client.receiveLine(timeout: .seconds(10))))
        #expect(errorName(answer) == "parseError")
        // A notification (no id) gets no answer; the next request is answered.
        try client.send(Array(#"{"jsonrpc":"2.0","method":"ping"}"#.utf8))
        #expect(try pingWorks(client))
    }

    @Test func aLineOverTheLimitClosesOnlyThatConnection() throws {
        defer { agent.stop() }
        let bystander = try raw()
        let offender = try raw()
        try offender.send(Array(repeating: UInt8(ascii: "a"), count: 10_000))
        let answer = try JSONParser.parse(try #require(try offender.receiveLine(timeout: .seconds(10))))
        #expect(errorName(answer) == "tooLarge")
        #expect(try offender.receiveLine(timeout: .seconds(10)) == nil)
        #expect(try pingWorks(bystander))
        #expect(try pingWorks(try raw()))
    }

    @Test func clientsThatVanishMidLineDoNotDisturbOthers() throws {
        defer { agent.stop() }
        let bystander = try raw()
        for _ in 0..<50 {
            let socket = try Socket.connect(to: .unix(path: agent.socketPath), timeout: .seconds(5))
            try socket.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"met"#.utf8))
            socket.close()
        }
        #expect(try pingWorks(bystander))
        #expect(try pingWorks(try raw()))
        #expect(
            try exchange(
                try raw(), #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"app","key":"name"}}"#)[
                    "result"]?["item"]?["value"] == "Ada")
    }

    @Test func stopRemovesTheSocketAndTheDiscoveryFile() throws {
        let path = agent.socketPath
        #expect(FileManager.default.fileExists(atPath: path))
        var mode = stat()
        #expect(stat(path, &mode) == 0)
        #expect(mode.st_mode & 0o777 == 0o600)
        agent.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.contains { $0.hasSuffix(".json") })
    }
}
