import Foundation
import Testing

/// Issue 11's "no orphaned keys" and "placeholders are never written", through the real
/// `jarvis-agent` and `jarvis`, on real files.
@Suite(.serialized) struct OrphansAndPlaceholdersEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    /// The demo host's catalog declares every key it stores; keys stored beside them since
    /// are orphans.
    @Test func undeclaredKeysAreListedThenRemovedAndAudited() throws {
        try sandbox.startAgent(["--demo"])
        #expect(try sandbox.jarvis("ls", "--undeclared", "--json").stdout.contains(#""items":[]"#))
        for key in ["stray_a", "stray_b"] {
            let set = try sandbox.jarvis("set", "com.example.demo.prefs", key, "1", "--int", "--new")
            #expect(set.status == 0, "\(set.stderr)")
        }
        let set = try sandbox.jarvis("set", "files:env/prod.json", "stray_c", "1", "--int", "--new")
        #expect(set.status == 0, "\(set.stderr)")
        let listed = try sandbox.jarvis("ls", "com.example.demo.prefs", "--undeclared")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("stray_a") && listed.stdout.contains("stray_b"))
        #expect(!listed.stdout.contains("launch_count") && !listed.stdout.contains("theme"))
        let everywhere = try sandbox.jarvis("ls", "--undeclared", "--json")
        #expect(everywhere.stdout.contains(#""key":"stray_c""#), "a catalogued JSON file's orphans too")
        #expect(!everywhere.stdout.contains("replicas"))

        let dry = try sandbox.jarvis("rm", "com.example.demo.prefs", "--undeclared", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would remove 2 keys"), "\(dry.stdout)")
        #expect(try sandbox.jarvis("get", "com.example.demo.prefs", "stray_a").status == 0)

        let removed = try sandbox.jarvis("rm", "com.example.demo.prefs", "--undeclared")
        #expect(removed.stdout.contains("removed 2 keys"), "\(removed.stdout)")
        let after = try sandbox.jarvis("ls", "com.example.demo.prefs")
        #expect(after.stdout.contains("user_name") && !after.stdout.contains("stray_a"))
        #expect(try sandbox.jarvis("ls", "com.example.demo.prefs", "--undeclared").stdout.contains("Nothing to show"))
        let history = try sandbox.jarvis("history", "--json", "--action", "delete")
        #expect(history.stdout.components(separatedBy: #""action":"delete""#).count - 1 == 2)

        #expect(try sandbox.jarvis("set", "defaults:com.example.demo.other", "k", "v").status == 0)
        let nowhere = try sandbox.jarvis("rm", "defaults:com.example.demo.other", "--undeclared")
        #expect(nowhere.status != 0)
        #expect(nowhere.stderr.contains("declares no keys"), "\(nowhere.stderr)")
    }

    /// A JSON `null` is shown as the string "null", read-only. Exported and imported back into
    /// the same file and into another one, it must stay a `null` and never become "null".
    @Test func importNeverTurnsAJSONNullIntoAString() throws {
        let files = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let original = #"{"proxy":null,"name":"Ada"}"# + "\n"
        try Data(original.utf8).write(to: files.appendingPathComponent("app.json"))
        try Data("{}\n".utf8).write(to: files.appendingPathComponent("other.json"))
        try sandbox.startAgent(["--files", files.path])

        let snapshot = sandbox.root.appendingPathComponent("app.snapshot.json")
        let export = try sandbox.jarvis("export", "files:app.json", "--output", snapshot.path)
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(text.contains(#""placeholder": true"#), "\(text)")

        let same = try sandbox.jarvis("import", snapshot.path)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("skipped  files:app.json proxy"), "\(same.stdout)")
        #expect(try String(contentsOf: files.appendingPathComponent("app.json"), encoding: .utf8) == original)

        let elsewhere = sandbox.root.appendingPathComponent("other.snapshot.json")
        try Data(text.replacingOccurrences(of: "app.json", with: "other.json").utf8).write(to: elsewhere)
        let dry = try sandbox.jarvis("import", elsewhere.path, "--dry-run")
        #expect(dry.stdout.contains("skip files:other.json proxy"), "\(dry.stdout)")
        let other = try sandbox.jarvis("import", elsewhere.path)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout.contains("added    files:other.json name"), "\(other.stdout)")
        #expect(other.stdout.contains("1 added, 0 changed, 0 unchanged, 1 placeholder not written"), "\(other.stdout)")
        let written = try String(contentsOf: files.appendingPathComponent("other.json"), encoding: .utf8)
        #expect(written.contains(#""name""#) && !written.contains("proxy"), "\(written)")

        // `set` refuses to replace the null with its stand-in, too.
        let set = try sandbox.jarvis("set", "files:app.json", "proxy", "null")
        #expect(set.status != 0)
        #expect(set.stderr.contains("stand-in"), "\(set.stderr)")
        #expect(try String(contentsOf: files.appendingPathComponent("app.json"), encoding: .utf8) == original)
    }

    /// A JSON `null` is read-only only as its stand-in: a real file's `"proxy": null` can be
    /// given a value, or removed, and only its own bytes change. A pointer edit inside a value
    /// holding a `null` stays refused, since it would write the stand-in back.
    @Test func aJSONNullCanBeReplacedWholeOrRemoved() throws {
        let files = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let file = files.appendingPathComponent("settings.json")
        let original =
            "{\n\t// proxy\n\t\"proxy\": null,\n\t\"extra\": {\"a\": null, \"b\": 1},\n\t\"name\": \"Ada\"\n}\n"
        try Data(original.utf8).write(to: file)
        try sandbox.startAgent(["--files", files.path])

        let set = try sandbox.jarvis("set", "files:settings.json", "proxy", "8080", "--int")
        #expect(set.status == 0, "\(set.stderr)")
        let replaced = original.replacingOccurrences(of: "\"proxy\": null", with: "\"proxy\": 8080")
        #expect(try String(contentsOf: file, encoding: .utf8) == replaced)

        let inside = try sandbox.jarvis("set", "files:settings.json", "/extra/b", "2", "--int")
        #expect(inside.status != 0)
        #expect(inside.stderr.contains("stand-in"), "\(inside.stderr)")

        let removed = try sandbox.jarvis("rm", "files:settings.json", "extra")
        #expect(removed.status == 0, "\(removed.stderr)")
        let expected = replaced.replacingOccurrences(of: "\t\"extra\": {\"a\": null, \"b\": 1},\n", with: "")
        #expect(try String(contentsOf: file, encoding: .utf8) == expected)
    }
}
