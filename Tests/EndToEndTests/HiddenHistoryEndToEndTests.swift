import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// What the journal holds of a key hidden today, and of a secret, on the real binaries: a key
/// or container changed in one run and hidden in the next shows no value in any answer, is
/// never undone, and is refused as a name never seen; whether an entry is a secret comes from
/// the scanner, never from the journal file.
@Suite struct HiddenHistoryEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\n  \"api_token\": \"tok-OLD-1\",\n  \"theme\": \"dark\"\n}\n".utf8)
            .write(to: folder.appendingPathComponent("app.json"))
        try Data("{\n  \"pin\": \"pin-OLD-2\"\n}\n".utf8).write(to: folder.appendingPathComponent("vault.json"))
    }

    private var journalFolder: URL { sandbox.root.appendingPathComponent("state/jarvis/journal") }

    /// The one journal file the agents of this sandbox keep, found by listing its folder.
    private func journalFile() throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: journalFolder.path)
            .filter { $0.hasSuffix(".journal") }
        try #require(names.count == 1, "one journal file: \(names)")
        return journalFolder.appendingPathComponent(names[0])
    }

    private func stop(_ agent: AgentProcess) {
        agent.process.terminate()
        agent.process.waitUntilExit()
    }

    /// `result`'s status and both streams, with `id` spelled as `unknown` (to compare a refusal
    /// for an entry with the refusal for an id never used).
    private func refusal(_ result: CommandResult, _ id: String, as unknown: String) -> String {
        "\(result.status) \(result.stdout) \(result.stderr)".replacingOccurrences(of: id, with: unknown)
    }

    @Test func aKeyOrContainerHiddenAfterARestartShowsNoValueAndIsRefusedAsNeverSeen() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        #expect(try sandbox.jarvis("set", "app.json", "theme", "light").status == 0)
        #expect(try sandbox.jarvis("set", "vault.json", "pin", "pin-NEW-6").status == 0)
        #expect(try sandbox.jarvis("set", "app.json", "api_token", "tok-NEW-5").status == 0)
        stop(agent)
        let app = try String(contentsOf: folder.appendingPathComponent("app.json"), encoding: .utf8)
        let vault = try String(contentsOf: folder.appendingPathComponent("vault.json"), encoding: .utf8)
        let restarted = try AgentProcess(
            sandbox, ["--files", folder.path, "--hide-key", "api_token", "--hide-container", "vault.json"])
        let hidden = ["tok-OLD", "tok-NEW", "api_token", "pin-OLD", "pin-NEW", "vault.json"]
        func shown(_ text: String) -> [String] { hidden.filter { text.contains($0) } }

        let history = try sandbox.jarvis("history")
        #expect(history.status == 0 && history.stdout.contains("theme"), "\(history.stdout) \(history.stderr)")
        #expect(shown(history.stdout + history.stderr).isEmpty, "\(history.stdout)")
        let json = try sandbox.jarvis("history", "--json")
        #expect(shown(json.stdout + json.stderr).isEmpty, "\(json.stdout)")
        let entries = try JSONParser.parse(Array(json.stdout.utf8))["entries"]?.arrayValue ?? []
        #expect(entries.count == 1, "only theme's entry: \(json.stdout)")
        // The raw method, asked about the hidden key by name, answers as for a key never seen.
        let client = try JarvisClient(endpoint: restarted.unix, clientName: "probe")
        defer { client.close() }
        let asks: [JSONObject] = [[:], ["key": .string("api_token")], ["container": .string("vault.json")]]
        for params in asks {
            let raw = JSONWriter.string(try client.call("journal", params))
            #expect(shown(raw).isEmpty, "\(raw)")
        }
        let never = JSONWriter.string(try client.call("journal", ["key": .string("never_seen")]))
        let asked = JSONWriter.string(try client.call("journal", ["key": .string("api_token")]))
        #expect(asked == never, "\(asked) vs \(never)")

        // A plain undo picks the change still shown, never the hidden one made after it.
        let dry = try sandbox.jarvis("undo", "--dry-run")
        #expect(dry.status == 0 && dry.stdout.contains("theme"), "\(dry.stdout) \(dry.stderr)")
        #expect(shown(dry.stdout + dry.stderr).isEmpty, "\(dry.stdout)")
        // Undoing a hidden entry by its id reads exactly as an id never used, and writes nothing.
        for id in ["2", "3"] {
            for dryRun in [true, false] {
                let extra = dryRun ? ["--dry-run"] : []
                let refused = try sandbox.run(Binaries.url("jarvis"), ["undo", id] + extra)
                let unknown = try sandbox.run(Binaries.url("jarvis"), ["undo", "999"] + extra)
                #expect(refused.status == 1, "\(refused.stdout)")
                #expect(refusal(refused, id, as: "999") == refusal(unknown, "999", as: "999"), "\(refused.stderr)")
                #expect(shown(refused.stdout + refused.stderr).isEmpty, "\(refused.stderr)")
            }
            let restore = try sandbox.jarvis("restore", "--to", id, "--dry-run")
            let unknown = try sandbox.jarvis("restore", "--to", "999", "--dry-run")
            #expect(refusal(restore, id, as: "999") == refusal(unknown, "999", as: "999"), "\(restore.stderr)")
        }
        // A restore to before every change takes back what is shown, and leaves the hidden alone.
        let preview = try sandbox.jarvis("restore", "--to", "1", "--dry-run")
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(shown(preview.stdout + preview.stderr).isEmpty, "\(preview.stdout)")
        let everything = try sandbox.jarvis("restore", "--to", "1h")
        #expect(everything.status == 0 && everything.stdout.contains("theme"), "\(everything.stdout) \(everything.stderr)")
        #expect(shown(everything.stdout + everything.stderr).isEmpty, "\(everything.stdout)")
        #expect(try String(contentsOf: folder.appendingPathComponent("vault.json"), encoding: .utf8) == vault)
        let now = try String(contentsOf: folder.appendingPathComponent("app.json"), encoding: .utf8)
        #expect(now.contains("tok-NEW-5") && !now.contains("light"), "theme restored, the hidden key untouched: \(now) (was \(app))")
        let after = try sandbox.jarvis("history", "--json")
        #expect(shown(after.stdout + after.stderr).isEmpty, "\(after.stdout)")
    }

    @Test func anEntryThatLiesAboutBeingASecretNeverPutsTheSecretInTheJournal() throws {
        let secrets = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        let token = secrets.appendingPathComponent("api_token")
        try Data("first-secret-value".utf8).write(to: token)
        let agent = try AgentProcess(sandbox, ["--secrets-dir", secrets.path])
        #expect(try sandbox.jarvis("set", "vault", "api_token", "second-secret-value").status == 0)
        stop(agent)
        // The file is rewritten: the agent's own line for the secret, without "secret": true
        // and with values, as a crafted file would have it.
        let file = try journalFile()
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(lines.count == 2 && lines[1].contains(#""secret":true"#), "\(lines)")
        let lying = lines[1].replacingOccurrences(
            of: #""secret":true"#,
            with: #""before":{"type":"string","value":"planted-before"},"after":{"type":"string","value":"planted-after"}"#)
        try Data((lines[0] + "\n" + lying + "\n").utf8).write(to: file)
        chmod(file.path, 0o600)
        // Meanwhile the secret changed: the next read finds it where the entry did not leave it.
        let real = "s3cr3t-REAL-value-77"
        try Data(real.utf8).write(to: token)
        let restarted = try AgentProcess(sandbox, ["--secrets-dir", secrets.path])
        #expect(try sandbox.jarvis("get", "vault", "api_token").status == 0)
        #expect(try sandbox.jarvis("ls", "vault").status == 0)
        let client = try JarvisClient(endpoint: restarted.unix, clientName: "probe")
        defer { client.close() }
        let raw = JSONWriter.string(try client.call("journal", [:]))
        let history = try sandbox.jarvis("history", "--json")
        let text = try sandbox.jarvis("history")
        for answer in [raw, history.stdout, text.stdout] {
            #expect(!answer.contains(real), "the secret is sent: \(answer)")
            #expect(!answer.contains("planted"), "the file decided what is a secret: \(answer)")
        }
        // Whatever was heard is in the file without the secret's value.
        let onDisk = try String(contentsOf: file, encoding: .utf8)
        #expect(!onDisk.contains(real), "the secret reached the journal file: \(onDisk)")
        // An undo of the lying entry cannot write the file's value into the secret.
        _ = try sandbox.jarvis("undo", "1")
        #expect(try String(contentsOf: token, encoding: .utf8) == real)
    }
}
