import Foundation
import JarvisCore
import Testing

/// What a newcomer meets in the first hour with the demo: unset keys, plain JSON, hints that
/// name the CLI's own flags, a catalog that covers the demo, and secrets the demo lets reveal.
@Suite(.serialized) struct DailyUseEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
        try sandbox.startAgent(["--demo"])
    }

    @Test func aCataloguedKeyWithNothingStoredIsUnsetWithItsDefault() throws {
        let get = try sandbox.jarvis("get", "com.example.demo.prefs", "theme")
        #expect(get.status == 0)
        #expect(get.stdout == "system\n", "\(get.stdout)")
        #expect(get.stderr.contains("unset"))
        let ls = try sandbox.jarvis("ls", "com.example.demo.prefs")
        let line = ls.stdout.split(separator: "\n").first { $0.contains("theme") } ?? ""
        #expect(line.contains("unset (default: system)"), "\(ls.stdout)")
        // Export: an unset key is neither a value nor a masked secret.
        let export = try sandbox.jarvis("export", "com.example.demo.prefs")
        #expect(!export.stderr.contains("masked"), "\(export.stderr)")
        let all = try sandbox.jarvis("export")
        #expect(all.stderr.contains("left out 3 masked secret(s)"), "\(all.stderr)")
    }

    @Test func lineOutputIsPlainJSONAndTheWireEncodingStaysInJSONOutput() throws {
        let server = try sandbox.jarvis("get", "files:app.json", "server")
        #expect(server.stdout.contains(#""write": 5.0"#), "\(server.stdout)")
        #expect(!server.stdout.contains("$real"))
        let profile = try sandbox.jarvis("get", "com.example.demo.prefs", "profile")
        #expect(profile.stdout.contains(#""created": 2023-11-14T22:13:20Z"#), "\(profile.stdout)")
        #expect(!profile.stdout.contains("$date"))
        let json = try sandbox.jarvis("get", "files:app.json", "server", "--json")
        #expect(json.stdout.contains("$real"))
    }

    @Test func hintsNameTheCommandLinesOwnFlagsAndPlaces() throws {
        let wrongText = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_count", "abc", "--int")
        #expect(wrongText.status == 64, "\(wrongText.stderr)")
        let wrongType = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_count", "5", "--string")
        #expect(wrongType.status == 1)
        #expect(wrongType.stderr.contains("use --int"), "\(wrongType.stderr)")
        #expect(!wrongType.stderr.contains("send type"))
        let nested = try sandbox.jarvis("get", "files:app.json", "/server/portt")
        #expect(nested.stderr.contains("at /server"), "\(nested.stderr)")
        #expect(!nested.stderr.contains("the top"))
    }

    @Test func theDemosCatalogCoversEveryKeyItStores() throws {
        let undeclared = try sandbox.jarvis("ls", "--undeclared", "--json")
        let items = try JSONParser.parse(undeclared.stdout)["items"]?.arrayValue ?? [.null]
        #expect(items.isEmpty, "\(undeclared.stdout)")
    }

    @Test func jarvisDemoLetsTheUserRevealTheDemosSecrets() throws {
        // `jarvis demo` serves through its hidden `demo-agent` command.
        let demo = Process()
        demo.executableURL = try Binaries.url("jarvis")
        demo.arguments = ["demo-agent"]
        var environment = sandbox.environment
        environment["JARVIS_RUNTIME_DIR"] = sandbox.root.appendingPathComponent("demo-run").path
        demo.environment = environment
        demo.standardOutput = FileHandle.nullDevice
        demo.standardError = FileHandle.nullDevice
        try FileManager.default.createDirectory(
            at: sandbox.root.appendingPathComponent("demo-run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try demo.run()
        defer {
            // SIGKILL: a child started from a test's worker thread may have SIGTERM blocked.
            kill(demo.processIdentifier, SIGKILL)
            demo.waitUntilExit()
        }
        sandbox.environmentOverrides["JARVIS_RUNTIME_DIR"] = sandbox.root.appendingPathComponent("demo-run").path
        var revealed: CommandResult?
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let attempt = try sandbox.jarvis("get", "secrets", "db_password", "--reveal")
            if attempt.status == 0 {
                revealed = attempt
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(revealed?.stdout == "correct-horse-battery-staple\n", "\(String(describing: revealed))")
    }
}
