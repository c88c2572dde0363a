import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// A change inside a nested value reads as what changed inside, in watch, diff and history.
@Suite struct NestedChangeEndToEndTests {
    @Test func watchDiffAndHistoryNameThePlaceInsideTheValue() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite(
            "com.example.app", in: folder,
            ["profile": ["tags": ["swift", "ios"], "created": Date(timeIntervalSince1970: 1_700_000_000)]])
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let before = sandbox.root.appendingPathComponent("before.json")
        let export = try sandbox.jarvis("export", "--output", before.path)
        #expect(export.status == 0, "\(export.stderr)")

        // watch, as a client reading its line output.
        let (watch, seen) = try sandbox.startJarvisGathering(["watch", "com.example.app"])
        defer {
            kill(watch.processIdentifier, SIGKILL)
            watch.waitUntilExit()
        }
        // The watch may not be subscribed yet: change the leaf until a change is printed.
        let deadline = Date().addingTimeInterval(30)
        var value = "rust"
        while !seen.current.contains("profile/tags/0"), Date() < deadline {
            _ = try sandbox.jarvis("set", "com.example.app", "/profile/tags/0", value)
            value = value == "rust" ? "go" : "rust"
            let wait = Date().addingTimeInterval(1)
            while !seen.current.contains("profile/tags/0"), Date() < wait { usleep(20_000) }
        }
        let lines = seen.current
        #expect(lines.contains("profile/tags/0  swift → rust") || lines.contains("profile/tags/0  rust → go")
            || lines.contains("profile/tags/0  go → rust"), "\(lines)")
        #expect(!lines.contains("{"), "the whole value was printed: \(lines)")
        // Leave the leaf as rust for the diff below.
        _ = try sandbox.jarvis("set", "com.example.app", "/profile/tags/0", "rust")

        let diff = try sandbox.jarvis("diff", before.path, "-")
        #expect(diff.stdout.contains("profile/tags/0: swift → rust"), "\(diff.stdout)")
        // An element appended reads as added, in watch and diff alike.
        #expect(try sandbox.jarvis("set", "com.example.app", "/profile/tags/-", "audit").status == 0)
        let appended = Date().addingTimeInterval(30)
        while !seen.current.contains("profile/tags/2"), Date() < appended { usleep(20_000) }
        let added = seen.current.split(separator: "\n").first { $0.contains("profile/tags/2") } ?? ""
        #expect(added.contains("added ") && added.contains("profile/tags/2  (added) → audit"), "\(seen.current)")
        let grown = try sandbox.jarvis("diff", before.path, "-")
        #expect(grown.stdout.contains("profile/tags/2: (added) → audit"), "\(grown.stdout)")
        let json = try sandbox.jarvis("diff", before.path, "-", "--json")
        #expect(json.stdout.contains(#""pointer":"/tags/0""#), "\(json.stdout)")
        let history = try sandbox.jarvis("history", "--json")
        #expect(history.stdout.contains(#""key":"profile","pointer":"/tags/0""#), "\(history.stdout)")
        let text = try sandbox.jarvis("history")
        #expect(text.stdout.contains("profile/tags/0"), "\(text.stdout)")
    }
}
