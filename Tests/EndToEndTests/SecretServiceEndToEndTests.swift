import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// The real `jarvis-agent --secret-service` against a real GNOME Keyring in a private D-Bus
/// session, driven by the real `jarvis` and checked with `secret-tool`.
@Suite(
    .serialized,
    .enabled(if: KeyringSession.isAvailable || OptionalTool.inCI, Comment(rawValue: KeyringSession.installHint)))
final class SecretServiceEndToEndTests {
    let sandbox: Sandbox
    let keyring: KeyringSession
    static let token = "ghp-KEYRING-e2e-7781"

    init() throws {
        sandbox = try Sandbox()
        keyring = try KeyringSession(root: sandbox.root)
        sandbox.environmentOverrides = keyring.overrides
        let stored = try keyring.secretTool(
            ["store", "--label=GitHub: ada", "service", "github.com", "account", "ada"], stdin: Self.token)
        #expect(stored.status == 0, "secret-tool store: \(stored.stderr)")
    }

    @Test func listGetSetAndDeleteInTheKeyring() throws {
        let log = sandbox.root.appendingPathComponent("agent.log")
        let agent = try sandbox.startAgent(["--secret-service", "--allow-reveal"], log: log)
        var masked: [CommandResult] = []

        let listing = try sandbox.jarvis("ls")
        masked.append(listing)
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("secrets:github.com"))
        #expect(listing.stdout.contains("ada"))
        #expect(listing.stdout.contains("(\(Self.token.count) chars, fingerprint "))
        masked.append(try sandbox.jarvis("get", "secrets:github.com", "ada", "--json"))

        let revealed = try sandbox.jarvis("get", "secrets:github.com", "ada", "--reveal")
        #expect(revealed.stdout == Self.token + "\n", "\(revealed.stderr)")

        let changed = try sandbox.jarvis("set", "secrets:github.com", "ada", "ghp-CHANGED-e2e-55")
        masked.append(changed)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(
            try keyring.secretTool(["lookup", "service", "github.com", "account", "ada"]).stdout == "ghp-CHANGED-e2e-55"
        )

        let created = try sandbox.jarvis("set", "secrets:myapp", "api_key", "NEW-e2e-key-31")
        masked.append(created)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(
            try keyring.secretTool(["lookup", "service", "myapp", "account", "api_key"]).stdout == "NEW-e2e-key-31")
        masked.append(try sandbox.jarvis("ls", "myapp"))

        let removed = try sandbox.jarvis("rm", "secrets:myapp", "api_key")
        masked.append(removed)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try keyring.secretTool(["lookup", "service", "myapp", "account", "api_key"]).status != 0)

        let wrongType = try sandbox.jarvis("set", "secrets:github.com", "ada", "12", "--int")
        #expect(wrongType.status == 1)
        #expect(wrongType.stderr.contains("text or data"))

        agent.terminate()
        agent.waitUntilExit()
        let everything =
            masked.map { $0.stdout + $0.stderr }.joined() + ((try? String(contentsOf: log, encoding: .utf8)) ?? "")
        for secret in [Self.token, "ghp-CHANGED-e2e-55", "NEW-e2e-key-31"] {
            #expect(!everything.contains(secret), "\(secret) leaked")
        }
    }

    /// A secret set or delete asks the keyring for its one item by that item's attributes:
    /// one search, never a search of every item (which every step of a write used to make).
    /// The client speaks to the agent directly: `jarvis set` asks more first (a get, and a
    /// listing of a container that does not exist yet). It lists the keyring once first, as a
    /// session's first look does (`jarvis ls`, the panel): a fresh agent whose search by
    /// attributes misses lists the keyring once, to find other programs' items placed by
    /// their label or schema.
    @Test func aWriteSearchesTheKeyringOnceForItsItem() throws {
        let agent = try AgentProcess(sandbox, ["--secret-service"])
        defer {
            agent.process.terminate()
            agent.process.waitUntilExit()
        }
        let client = try JarvisClient(endpoint: agent.unix, clientName: "lookups", timeout: .seconds(20))
        defer { client.close() }
        let monitor = try KeyringMonitor(keyring: keyring, root: sandbox.root)
        func address(_ container: String, _ key: String) -> PreferenceAddress {
            PreferenceAddress(scanner: "secrets", container: container, key: key)
        }
        _ = try client.call("list", ["scanner": "secrets"])
        _ = try monitor.searchesUntilMark()
        let steps: [(name: String, write: () throws -> Void, query: [String])] = [
            (
                "change", { try client.set(address("github.com", "ada"), to: "ghp-CHANGED-lookup") },
                ["github.com", "ada"]
            ),
            ("create", { try client.set(address("myapp", "api_key"), to: "NEW-lookup") }, ["myapp", "api_key"]),
            (
                "change again", { try client.set(address("myapp", "api_key"), to: "NEWER-lookup") },
                ["myapp", "api_key"]
            ),
            ("delete", { try client.delete(address("myapp", "api_key")) }, ["myapp", "api_key"]),
        ]
        for step in steps {
            try step.write()
            let searches = try monitor.searchesUntilMark()
            let expected = KeyringMonitor.Search(attributes: ["service": step.query[0], "account": step.query[1]])
            #expect(searches == [expected], "\(step.name)")
        }
        #expect(
            try keyring.secretTool(["lookup", "service", "github.com", "account", "ada"]).stdout == "ghp-CHANGED-lookup"
        )
        #expect(try keyring.secretTool(["lookup", "service", "myapp", "account", "api_key"]).status != 0)
    }

    /// Another program's item with neither a `service` nor an `account` attribute (as
    /// `secret-tool store` and browsers make them) is found by name on an agent that has listed
    /// nothing yet, and changed in place rather than created beside it.
    @Test func aFreshAgentFindsAnItemItsLabelPlaces() throws {
        let stored = try keyring.secretTool(
            ["store", "--label=Chrome Safe Storage", "application", "chrome"], stdin: "chrome-key-1")
        #expect(stored.status == 0, "secret-tool store: \(stored.stderr)")
        let agent = try AgentProcess(sandbox, ["--secret-service"])
        defer {
            agent.process.terminate()
            agent.process.waitUntilExit()
        }
        // No `service` and no schema attribute: listed under `other`.
        let container = "secrets:other"
        let got = try sandbox.jarvis("get", container, "Chrome Safe Storage")
        #expect(got.status == 0 && got.stdout.contains("12 chars"), "\(got.stdout)\(got.stderr)")
        let changed = try sandbox.jarvis("set", container, "Chrome Safe Storage", "chrome-key-2")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try keyring.secretTool(["lookup", "application", "chrome"]).stdout == "chrome-key-2")
        let search = try keyring.secretTool(["search", "--all", "application", "chrome"])
        #expect(search.stdout.components(separatedBy: "label = ").count == 2, "one item: \(search.stdout)")
    }
}
