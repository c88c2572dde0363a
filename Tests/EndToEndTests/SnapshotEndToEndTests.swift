import Foundation
import Testing

/// `jarvis export`, `import` and `diff` against the real agent and real property list files.
@Suite(.serialized) struct SnapshotEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    static let when = Date(timeIntervalSince1970: 1_700_000_000.25)
    let original: [String: Any] = [
        "a_string": "Ada ✓", "an_integer": -42, "a_real": 0.1, "a_whole_real": 2.0, "a_boolean": true,
        "a_date": when, "some_data": Data([0, 1, 2, 254, 255]),
        "an_array": ["x", 1, when, Data([7]), ["nested": true]] as [Any],
        "a_dictionary": ["when": when, "blob": Data("hi".utf8), "ratio": 1.5, "list": [when]] as [String: Any],
    ]

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, original)
        try sandbox.writeSuite("com.example.other", in: folder, ["unrelated": 1])
    }

    private var suiteFile: URL { folder.appendingPathComponent("com.example.app.plist") }

    private func export(_ name: String, _ extra: String...) throws -> URL {
        let file = sandbox.root.appendingPathComponent(name)
        let result = try sandbox.run(
            try Binaries.url("jarvis"), ["export", "com.example.app", "--output", file.path] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return file
    }

    private func changeEverything() throws {
        let changes: [[String]] = [
            ["a_string", "Grace"], ["an_integer", "7", "--int"], ["a_real", "0.2", "--real"],
            ["a_boolean", "false", "--bool"],
            ["a_date", "2030-01-01T00:00:00Z", "--date"], ["some_data", "AAAA", "--data"],
            ["an_array", "[]", "--json"],
            ["a_dictionary", #"{"other":{"$data":"AA=="}}"#, "--json"],
        ]
        for change in changes {
            let result = try sandbox.run(try Binaries.url("jarvis"), ["set", "com.example.app"] + change)
            #expect(result.status == 0, "set \(change): \(result.stderr)")
        }
        #expect(try sandbox.jarvis("rm", "com.example.app", "a_whole_real").status == 0)
    }

    @Test func exportWritesAVersionedDocument() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let result = try sandbox.jarvis("export", "com.example.app")
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(document?["format"] as? String == "jarvis-snapshot")
        #expect(document?["version"] as? Int == 1)
        #expect((document?["agent"] as? [String: Any])?["name"] as? String == "jarvis-agent")
        let items = document?["items"] as? [[String: Any]] ?? []
        #expect(items.count == original.count)
        #expect(!result.stdout.contains("unrelated"))
        let date = items.first { $0["key"] as? String == "a_date" }
        #expect(date?["type"] as? String == "date")
    }

    @Test func importRestoresEveryValueLosslesslyAndDryRunChangesNothing() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        // XML property lists keep whole seconds; compare with what the file holds, not `original`.
        let stored = try sandbox.readSuite("com.example.app", in: folder)
        #expect(NSDictionary(dictionary: stored).count == original.count)
        let snapshot = try export("before.json")
        try changeEverything()
        let changedBytes = try Data(contentsOf: suiteFile)

        let dryRun = try sandbox.jarvis("import", snapshot.path, "--dry-run")
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("dry run: 1 to add, 8 to change, 0 unchanged"))
        #expect(dryRun.stdout.contains("~ defaults:com.example.app an_integer"))
        #expect(try Data(contentsOf: suiteFile) == changedBytes)

        let applied = try sandbox.jarvis("import", snapshot.path)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout.contains("1 added, 8 changed, 0 unchanged"))
        let restored = try sandbox.readSuite("com.example.app", in: folder)
        #expect(NSDictionary(dictionary: restored).isEqual(to: stored), "\(restored)")
        let realNumber = restored["a_whole_real"] as? NSNumber
        #expect(realNumber.map(CLIEndToEndTests.isReal) == true)

        let again = try export("after.json")
        let diff = try sandbox.jarvis("diff", snapshot.path, again.path)
        #expect(diff.stdout.contains("0 added, 0 removed, 0 changed, 9 unchanged"), "\(diff.stdout)")
        let second = try sandbox.jarvis("import", snapshot.path)
        #expect(second.stdout.contains("0 added, 0 changed, 9 unchanged"))
    }

    @Test func diffOfSnapshotsAndOfASnapshotAgainstTheLiveAgent() throws {
        let agent = try sandbox.startAgent(["--defaults-dir", folder.path])
        let first = try export("first.json")
        #expect(try sandbox.jarvis("set", "com.example.app", "an_integer", "43", "--int").status == 0)
        #expect(try sandbox.jarvis("set", "com.example.app", "fresh", "new").status == 0)
        #expect(try sandbox.jarvis("rm", "com.example.app", "a_string").status == 0)
        let second = try export("second.json")

        let files = try sandbox.jarvis("diff", first.path, second.path)
        #expect(files.status == 0)
        #expect(files.stdout.contains("+ defaults:com.example.app fresh = new (string)"))
        #expect(files.stdout.contains("- defaults:com.example.app a_string"))
        #expect(files.stdout.contains("~ defaults:com.example.app an_integer: -42 (integer) → 43 (integer)"))
        #expect(files.stdout.contains("1 added, 1 removed, 1 changed, 7 unchanged"))

        let live = try sandbox.jarvis("diff", first.path, "-", "com.example.app")
        #expect(live.stdout.contains("1 added, 1 removed, 1 changed, 7 unchanged"), "\(live.stdout)\(live.stderr)")
        let byPID = try sandbox.jarvis(
            "diff", "agent:\(agent.processIdentifier)", second.path, "com.example.app", "--exit-code")
        #expect(byPID.status == 0, "\(byPID.stdout)\(byPID.stderr)")
        let differs = try sandbox.jarvis("diff", first.path, second.path, "--exit-code")
        #expect(differs.status == 1)
        let json = try sandbox.jarvis("diff", first.path, second.path, "--json")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((parsed?["changed"] as? [Any])?.count == 1)
    }

    /// Export, then diff against the same agent: clean, with the masked secrets the snapshot
    /// left out said to be not compared (never added); a secret added since is still added.
    @Test func anExportDiffsCleanAgainstItsAgentAndLeftOutSecretsAreNotCompared() throws {
        let vault = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        try Data("sk-live-1234".utf8).write(to: vault.appendingPathComponent("api_token"))
        try sandbox.startAgent(["--defaults-dir", folder.path, "--secrets-dir", vault.path])
        let snapshot = sandbox.root.appendingPathComponent("all.json")
        let export = try sandbox.jarvis("export", "--output", snapshot.path)
        #expect(export.status == 0 && export.stderr.contains("left out 1 masked secret"), "\(export.stderr)")
        #expect(!(try String(contentsOf: snapshot, encoding: .utf8)).contains("sk-live"))

        let same = try sandbox.jarvis("diff", snapshot.path, "-", "--exit-code")
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("? secrets:vault api_token: a masked secret a snapshot left out; not compared"), "\(same.stdout)")
        #expect(same.stdout.contains("0 added, 0 removed, 0 changed, 10 unchanged, 1 not compared"), "\(same.stdout)")
        #expect(!same.stdout.split(separator: "\n").contains { $0.hasPrefix("+ ") }, "\(same.stdout)")

        try Data("hunter2".utf8).write(to: vault.appendingPathComponent("new_token"))
        let grown = try sandbox.jarvis("diff", snapshot.path, "-", "--exit-code")
        #expect(grown.status == 1, "\(grown.stdout)")
        #expect(grown.stdout.contains("+ secrets:vault new_token"), "\(grown.stdout)")

        let imported = try sandbox.jarvis("import", snapshot.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("0 added, 0 changed, 10 unchanged\n"), "\(imported.stdout)")
    }

    @Test func aRefusedItemUndoesTheWholeImport() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let snapshot = sandbox.root.appendingPathComponent("mixed.json")
        try Data(
            """
            {"format":"jarvis-snapshot","version":1,"items":[
              {"scanner":"defaults","container":"com.example.app","key":"an_integer","type":"integer","value":100},
              {"scanner":"defaults","container":"com.example.app","key":"brand_new","type":"string","value":"x"},
              {"scanner":"no-such-scanner","container":"c","key":"k","type":"string","value":"y"}
            ]}
            """.utf8
        ).write(to: snapshot)
        let before = try Data(contentsOf: suiteFile)
        let result = try sandbox.jarvis("import", snapshot.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("refused"))
        #expect(result.stdout.contains("undone"))
        let after = try sandbox.readSuite("com.example.app", in: folder)
        #expect(after["brand_new"] == nil)
        #expect((after["an_integer"] as? NSNumber)?.intValue == -42)
        _ = before

        let partial = try sandbox.jarvis("import", snapshot.path, "--partial")
        #expect(partial.status == 1)
        #expect(try sandbox.readSuite("com.example.app", in: folder)["brand_new"] as? String == "x")
    }

    @Test func badSnapshotsAreRefusedClearly() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let file = sandbox.root.appendingPathComponent("bad.json")
        try Data(#"{"format":"jarvis-snapshot","version":9,"items":[]}"#.utf8).write(to: file)
        let newer = try sandbox.jarvis("import", file.path)
        #expect(newer.status == 1)
        #expect(newer.stderr.contains("version 9"))
        try Data(#"{"items":[]}"#.utf8).write(to: file)
        #expect(try sandbox.jarvis("diff", file.path, "-").stderr.contains("not a Jarvis snapshot"))
    }
}
