import Foundation
import Testing

/// JSON files, pointers, bulk delete and the key catalog, through the real `jarvis-agent` and `jarvis`.
@Suite(.serialized) struct EditingEndToEndTests {
    let sandbox: Sandbox
    let suites: URL
    let files: URL

    init() throws {
        sandbox = try Sandbox()
        suites = sandbox.root.appendingPathComponent("prefs")
        files = sandbox.root.appendingPathComponent("json")
        try sandbox.writeSuite(
            "com.example.app", in: suites,
            [
                "profile": [
                    "tags": ["a", "b"], "when": Date(timeIntervalSince1970: 1_700_000_000),
                    "deep": ["inner": ["x": 1, "blob": Data([1, 2, 3]), "at": Date(timeIntervalSince1970: 0)]],
                ],
                "workout_1": 1, "workout_2": 2, "name": "Ada",
            ])
        try FileManager.default.createDirectory(
            at: files.appendingPathComponent("env"), withIntermediateDirectories: true)
        try Data(
            "{\n  \"server\": {\n    \"host\": \"localhost\",\n    \"port\": 8080\n  },\n  \"debug\": false\n}\n".utf8
        )
        .write(to: files.appendingPathComponent("app.json"))
        try Data(#"{"replicas":3}"#.utf8).write(to: files.appendingPathComponent("env/prod.json"))
        try Data("{\"a\": 1,\n\"b\": }\n".utf8).write(to: files.appendingPathComponent("broken.json"))
    }

    @Test func jsonFilesWithPointersAndProblems() throws {
        try sandbox.startAgent(["--files", files.path, "--defaults-dir", suites.path])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("files:app.json"))
        #expect(listing.stdout.contains("files:env/prod.json"))
        #expect(listing.stdout.contains("files:broken.json: not valid JSON: line 2"))
        #expect(try sandbox.jarvis("get", "files:app.json", "/server/port").stdout == "8080\n")
        let set = try sandbox.jarvis("set", "files:app.json", "/server/port", "9090", "--int")
        #expect(set.status == 0, "\(set.stderr)")
        let text = String(decoding: try Data(contentsOf: files.appendingPathComponent("app.json")), as: UTF8.self)
        #expect(
            text
                == "{\n  \"server\": {\n    \"host\": \"localhost\",\n    \"port\": 9090\n  },\n  \"debug\": false\n}\n"
        )
        #expect(try sandbox.jarvis("set", "env/prod.json", "region", "eu").status == 0)
        #expect(
            String(decoding: try Data(contentsOf: files.appendingPathComponent("env/prod.json")), as: UTF8.self)
                == #"{"replicas":3,"region":"eu"}"#)
        let broken = try sandbox.jarvis("set", "files:broken.json", "a", "2", "--int")
        #expect(broken.status == 1)
        #expect(
            String(decoding: try Data(contentsOf: files.appendingPathComponent("broken.json")), as: UTF8.self)
                == "{\"a\": 1,\n\"b\": }\n")
    }

    @Test func threeLevelsDeepInADefaultsSuiteKeepsDatesAndData() throws {
        try sandbox.startAgent(["--defaults-dir", suites.path])
        let set = try sandbox.jarvis("set", "com.example.app", "/profile/deep/inner/x", "5", "--int")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try sandbox.jarvis("set", "com.example.app", "/profile/tags/0", "swift").status == 0)
        #expect(try sandbox.jarvis("rm", "com.example.app", "/profile/tags/1").status == 0)
        let profile = try #require(try sandbox.readSuite("com.example.app", in: suites)["profile"] as? [String: Any])
        #expect(profile["when"] as? Date == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(profile["tags"] as? [String] == ["swift"])
        let inner = try #require((profile["deep"] as? [String: Any])?["inner"] as? [String: Any])
        #expect((inner["x"] as? NSNumber)?.intValue == 5)
        #expect(inner["blob"] as? Data == Data([1, 2, 3]))
        #expect(inner["at"] as? Date == Date(timeIntervalSince1970: 0))
        let missing = try sandbox.jarvis("get", "com.example.app", "/profile/nope/x")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no key 'nope'"))
    }

    @Test func bulkDeleteWithAndWithoutDryRun() throws {
        try sandbox.startAgent(["--defaults-dir", suites.path])
        let dry = try sandbox.jarvis("rm", "com.example.app", "--match", "workout_*", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("workout_1") && dry.stdout.contains("workout_2"))
        #expect(dry.stdout.contains("would remove 2 keys"))
        #expect(try sandbox.readSuite("com.example.app", in: suites)["workout_1"] != nil)
        let done = try sandbox.jarvis("rm", "com.example.app", "--match", "workout_*")
        #expect(done.stdout.contains("removed 2 keys"))
        let stored = try sandbox.readSuite("com.example.app", in: suites)
        #expect(stored["workout_1"] == nil && stored["workout_2"] == nil && stored["name"] as? String == "Ada")
    }

    @Test func demoCatalogTypeChecksAndReset() throws {
        try sandbox.startAgent(["--demo"])
        let listing = try sandbox.jarvis("ls", "com.example.demo.prefs")
        #expect(listing.stdout.contains("theme"))
        #expect(listing.stdout.contains("unset (default: system)"))
        let json = try sandbox.jarvis("get", "com.example.demo.prefs", "theme", "--json")
        #expect(json.stdout.contains(#""unset":true"#) && json.stdout.contains(#""default":"system""#))
        let wrong = try sandbox.jarvis("set", "com.example.demo.prefs", "theme", "purple")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("accepts only"))
        #expect(try sandbox.jarvis("set", "com.example.demo.prefs", "theme", "dark").status == 0)
        let reset = try sandbox.jarvis("reset", "com.example.demo.prefs", "theme")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("now unset, default system"))
        #expect(try sandbox.jarvis("get", "files:app.json", "/server/port").stdout == "8080\n")
    }
}
