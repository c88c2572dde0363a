import Foundation
import Testing

/// The real `jarvis-agent` serving a real folder, driven by the real `jarvis` binary.
@Suite(.serialized) struct CLIEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite(
            "com.example.app", in: folder,
            [
                "user_name": "Ada", "launch_count": 3, "volume": 0.5,
                "profile": ["tags": ["a", "b"], "when": Date(timeIntervalSince1970: 1_700_000_000)],
            ])
        try sandbox.writeSuite("private_data", in: folder, ["api_token": "sk-secret-value"])
    }

    @Test func agentsListsTheRunningAgent() throws {
        let agent = try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "e2e-agent"])
        let result = try sandbox.jarvis("agents")
        #expect(result.status == 0)
        #expect(result.stdout.contains("e2e-agent"))
        #expect(result.stdout.contains(String(agent.processIdentifier)))
        let json = try sandbox.jarvis("agents", "--json")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["name"] as? String == "e2e-agent")
    }

    @Test func listGetSetAndDeleteEveryType() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("defaults:com.example.app"))
        #expect(listing.stdout.contains("launch_count"))

        #expect(try sandbox.jarvis("get", "com.example.app", "user_name").stdout == "Ada\n")
        let cases: [(flag: String, text: String, check: (Any?) -> Bool)] = [
            ("--string", "Grace", { $0 as? String == "Grace" }),
            ("--int", "-42", { ($0 as? NSNumber)?.int64Value == -42 && !(($0 as? NSNumber).map(Self.isReal) ?? true) }),
            ("--real", "2.5", { ($0 as? NSNumber)?.doubleValue == 2.5 }),
            ("--bool", "true", { $0 as? Bool == true }),
            ("--date", "2024-01-15T10:00:00Z", { ($0 as? Date)?.timeIntervalSince1970 == 1_705_312_800 }),
            ("--data", "aGVsbG8=", { $0 as? Data == Data("hello".utf8) }),
            (
                "--json", #"{"nested":[1,2.5,{"$date":"2024-01-15T10:00:00Z"}]}"#,
                { value in
                    guard let dictionary = value as? [String: Any], let nested = dictionary["nested"] as? [Any] else {
                        return false
                    }
                    return (nested[0] as? NSNumber)?.int64Value == 1 && (nested[2] as? Date) != nil
                }
            ),
        ]
        for (index, testCase) in cases.enumerated() {
            let key = "key_\(index)"
            let result = try sandbox.jarvis("set", "com.example.app", key, testCase.text, testCase.flag)
            #expect(result.status == 0, "set \(testCase.flag): \(result.stderr)")
            let stored = try sandbox.readSuite("com.example.app", in: folder)[key]
            #expect(testCase.check(stored), "\(testCase.flag) stored \(String(describing: stored))")
        }
        let item = try sandbox.jarvis("get", "com.example.app", "key_4", "--json")
        #expect(item.stdout.contains(#""type":"date""#))

        let removed = try sandbox.jarvis("rm", "com.example.app", "user_name")
        #expect(removed.status == 0)
        #expect(try sandbox.readSuite("com.example.app", in: folder)["user_name"] == nil)
        let missing = try sandbox.jarvis("get", "com.example.app", "user_name")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no key 'user_name'"))
    }

    @Test func badValuesAndUsageGiveClearErrors() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let notInt = try sandbox.jarvis("set", "com.example.app", "launch_count", "many", "--int")
        // Text the chosen type flag cannot hold is a usage mistake.
        #expect(notInt.status == 64)
        #expect(notInt.stderr.contains("not a whole number"))
        let usage = try sandbox.jarvis("get", "com.example.app")
        #expect(usage.status == 64)
        let unknown = try sandbox.jarvis("frobnicate")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown command"))
    }

    @Test func excludedSuiteIsInvisibleEverywhere() throws {
        try sandbox.startAgent(["--demo"])
        let listing = try sandbox.jarvis("ls", "--json")
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("com.example.demo.prefs"))
        #expect(!listing.stdout.contains("private_data"))
        #expect(!listing.stdout.contains("api_token"))
        let get = try sandbox.jarvis("get", "defaults:private_data", "api_token")
        #expect(get.status == 1)
        #expect(!get.stderr.contains("sk-demo"))
        let set = try sandbox.jarvis("set", "defaults:private_data", "api_token", "x")
        #expect(set.status == 1)
        let filtered = try sandbox.jarvis("ls", "private_*")
        #expect(!filtered.stdout.contains("api_token"))
    }

    @Test func productionRefusesSetAndRemove() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path, "--production"])
        let set = try sandbox.jarvis("set", "com.example.app", "launch_count", "9", "--int")
        #expect(set.status == 1)
        #expect(set.stderr.contains("production"))
        let remove = try sandbox.jarvis("rm", "com.example.app", "user_name")
        #expect(remove.status == 1)
        let stored = try sandbox.readSuite("com.example.app", in: folder)
        #expect((stored["launch_count"] as? NSNumber)?.intValue == 3)
        #expect(stored["user_name"] as? String == "Ada")
        #expect(try sandbox.jarvis("get", "com.example.app", "launch_count").stdout == "3\n")
    }

    @Test func severalAgentsNeedAChoice() throws {
        let first = try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "one"])
        try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "two"])
        let ambiguous = try sandbox.jarvis("ls")
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("several agents"))
        #expect(ambiguous.stderr.contains("one") && ambiguous.stderr.contains("two"))
        #expect(try sandbox.jarvis("ls", "--agent", "one").status == 0)
        #expect(try sandbox.jarvis("ls", "--agent", String(first.processIdentifier)).status == 0)
    }

    @Test func stopRemovesTheDiscoveryFileAndStaleFilesAreIgnored() throws {
        let agent = try sandbox.startAgent(["--defaults-dir", folder.path])
        agent.terminate()
        agent.waitUntilExit()
        #expect(
            !FileManager.default.fileExists(
                atPath: sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).json").path))
        let stale = sandbox.runtime.appendingPathComponent("999999.json")
        try Data(#"{"pid":999999,"name":"ghost","socket":"/nonexistent.sock"}"#.utf8).write(to: stale)
        let listing = try sandbox.jarvis("agents")
        #expect(!listing.stdout.contains("ghost"))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    /// A SIGTERM sent as soon as the discovery file exists, while the agent is still printing
    /// its first lines (here held up by a full stdout pipe), must stop it cleanly once it can:
    /// it used to arrive before the agent watched for signals, and either ended it without
    /// removing its discovery file or, a moment later, was ignored and left it running.
    @Test func aSigtermDuringStartupStopsTheAgentCleanly() throws {
        let output = Pipe()
        let writer = output.fileHandleForWriting.fileDescriptor
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        let filler = [UInt8](repeating: 0x2E, count: 4096)
        while filler.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) & ~O_NONBLOCK)
        let agent = Process()
        agent.executableURL = try Binaries.url("jarvis-agent")
        agent.arguments = ["--defaults-dir", folder.path]
        agent.environment = sandbox.environment
        agent.standardOutput = output.fileHandleForWriting
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        try output.fileHandleForWriting.close()
        let record = sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).json")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !FileManager.default.fileExists(atPath: record.path) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(FileManager.default.fileExists(atPath: record.path))
        agent.terminate()
        Thread.sleep(forTimeInterval: 0.5)
        // Let the agent print again, and give it a while to stop.
        let reader = output.fileHandleForReading.fileDescriptor
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        var sink = [UInt8](repeating: 0, count: 65536)
        let stopBy = Date().addingTimeInterval(20)
        while agent.isRunning, Date() < stopBy {
            _ = sink.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(!agent.isRunning, "the agent ignored SIGTERM")
        if agent.isRunning { kill(agent.processIdentifier, SIGKILL) }
        agent.waitUntilExit()
        #expect(agent.terminationReason == .exit)
        #expect(agent.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    static func isReal(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "d" || type == "f"
    }
}
