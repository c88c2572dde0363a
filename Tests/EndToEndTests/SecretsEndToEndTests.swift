import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// The real `jarvis-agent --secrets-dir` driven by the real `jarvis`: secrets stay masked in
/// every output unless the agent allows reveal and the command asks for it.
@Suite(.serialized) final class SecretsEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    static let token = "sk-live-TOPSECRET-e2e-0042"
    static let replacement = "NEWSECRET-e2e-9137"

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("app-secrets")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.token.utf8).write(to: folder.appendingPathComponent("api_token"))
        try Data([0xFF, 0x00, 0xFE]).write(to: folder.appendingPathComponent("signing.key"))
    }

    @Test func maskedEverywhereWithoutReveal() throws {
        let log = sandbox.root.appendingPathComponent("agent.log")
        let agent = try sandbox.startAgent(["--secrets-dir", folder.path], log: log)
        var outputs: [CommandResult] = []
        func run(_ arguments: String...) throws -> CommandResult {
            let result = try sandbox.run(Binaries.url("jarvis"), arguments)
            outputs.append(result)
            return result
        }
        let listing = try run("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("secrets:app-secrets"))
        #expect(listing.stdout.contains("api_token"))
        #expect(listing.stdout.contains("(\(Self.token.count) chars, fingerprint "))
        #expect(listing.stdout.contains("signing.key"))
        _ = try run("ls", "--json")
        let json = try run("get", "app-secrets", "api_token", "--json")
        #expect(json.stdout.contains(#""masked":true"#))
        let binary = try run("get", "app-secrets", "signing.key", "--json")
        #expect(binary.stdout.contains(#""type":"data""#) && binary.stdout.contains(#""length":3"#))
        let refused = try run("get", "app-secrets", "api_token", "--reveal")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--allow-reveal"))
        #expect(try run("ls", "--reveal").status == 1)
        let set = try run("set", "app-secrets", "api_token", Self.replacement)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("api_token"), encoding: .utf8) == Self.replacement)
        _ = try run("get", "secrets:app-secrets", "api_token")
        _ = try run("set", "app-secrets", "count", "3", "--int")
        _ = try run("rm", "app-secrets", "missing")
        agent.terminate()
        agent.waitUntilExit()
        let everything =
            outputs.map { $0.stdout + $0.stderr }.joined() + ((try? String(contentsOf: log, encoding: .utf8)) ?? "")
        #expect(!everything.contains(Self.token))
        #expect(!everything.contains(Self.replacement))
        #expect(!everything.contains("TOPSECRET"))
    }

    @Test func revealWhereAllowed() throws {
        try sandbox.startAgent(["--secrets-dir", folder.path, "--allow-reveal"])
        let get = try sandbox.jarvis("get", "app-secrets", "api_token", "--reveal")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == Self.token + "\n")
        let masked = try sandbox.jarvis("get", "app-secrets", "api_token")
        #expect(!masked.stdout.contains(Self.token))
        let listing = try sandbox.jarvis("ls", "--reveal")
        #expect(listing.stdout.contains(Self.token))
        let binary = try sandbox.jarvis("get", "app-secrets", "signing.key", "--reveal", "--json")
        #expect(binary.stdout.contains(#""$data":"/wD+""#))
    }

    @Test func productionRefusesReveal() throws {
        let refused = try sandbox.run(
            Binaries.url("jarvis-agent"), ["--production", "--allow-reveal", "--secrets-dir", folder.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("production configuration refuses to reveal secrets"))

        let agent = try sandbox.startAgent(["--production", "--secrets-dir", folder.path])
        let record =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).json")))
            as? [String: Any]
        let socket = try #require(record?["socket"] as? String)
        let client = try JarvisClient(endpoint: .unix(path: socket))
        defer { client.close() }
        #expect(client.hello["capabilities"]?["reveal"] == .bool(false))
        do {
            _ = try client.call(
                "get", ["scanner": "secrets", "container": "app-secrets", "key": "api_token", "reveal": true])
            Issue.record("a production agent revealed a secret")
        } catch {
            #expect(error.code == .unauthorized)
            #expect(error.message.contains("production"))
            #expect(!error.message.contains(Self.token))
        }
        let cli = try sandbox.jarvis("ls", "--reveal", "--json")
        #expect(cli.status == 1)
        #expect(!(cli.stdout + cli.stderr).contains(Self.token))
    }

    #if !canImport(Security)
        // The Secret Service backend exists outside Apple platforms only (the Keychain serves there).
        @Test func keyringWithoutSessionBusIsAProblemNotACrash() throws {
            let emptyRuntime = sandbox.root.appendingPathComponent("xdg")
            try FileManager.default.createDirectory(at: emptyRuntime, withIntermediateDirectories: true)
            sandbox.environmentOverrides = [
                "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": emptyRuntime.path, "DISPLAY": nil,
            ]
            try sandbox.startAgent(["--secret-service", "--secrets-dir", folder.path])
            let listing = try sandbox.jarvis("ls")
            #expect(listing.status == 0, "\(listing.stderr)")
            #expect(listing.stdout.contains("api_token"))
            #expect(listing.stdout.contains("secrets:secret-service: "))
            let scanners = try sandbox.jarvis("ls", "--scanner", "secrets", "--json")
            #expect(scanners.status == 0)
        }

        @Test(
            .enabled(
                if: OptionalTool.hasLibrary("libsecret-1.so.0") || OptionalTool.inCI,
                OptionalTool.hint(["libsecret"], install: "apt-get install libsecret-1-0")))
        func unreachableBusIsReportedWithLibsecretsMessage() throws {
            sandbox.environmentOverrides = [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.root.path)/no-bus", "DISPLAY": nil,
            ]
            try sandbox.startAgent(["--secret-service", "--secrets-dir", folder.path])
            let listing = try sandbox.jarvis("ls", "--json")
            #expect(listing.status == 0, "\(listing.stderr)")
            #expect(listing.stdout.contains(#""name":"secret-service""#))
            #expect(listing.stdout.contains("cannot connect to the Secret Service: "))
            let set = try sandbox.jarvis("set", "secrets:newservice", "k", "v")
            #expect(set.status == 1)
            #expect(set.stderr.contains("cannot connect to the Secret Service"))
        }

    #endif

    @Test func demoServesMaskedSecrets() throws {
        try sandbox.startAgent(["--demo"])
        let listing = try sandbox.jarvis("ls", "--scanner", "secrets")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("db_password"))
        #expect(!listing.stdout.contains("correct-horse"))
    }
}
