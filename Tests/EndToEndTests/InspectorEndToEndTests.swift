import Foundation
import JarvisTestSupport
import Testing

/// The real `jarvis inspect` in a real terminal (tmux), against the real `jarvis-agent`.
@Suite(
    .serialized,
    .enabled(if: Tmux.isAvailable || OptionalTool.inCI, OptionalTool.hint(["tmux"], install: "apt-get install tmux")))
struct InspectorEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite(
            "com.example.app", in: folder,
            ["user_name": "Ada", "launch_count": 3, "volume": 0.5, "theme": "dark", "profile": ["tags": ["a", "b"]]])
    }

    @Test func browseFilterEditDeleteWatchAndQuit() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; echo INSPECT-EXITED-$?; sleep 60", environment: sandbox.environment,
            folder: sandbox.root)

        // One scanner: the inspector opens on its containers.
        try tmux.wait(for: "com.example.app")
        try tmux.keys("Enter")
        try tmux.wait(for: "launch_count")
        #expect(try tmux.screen().contains("user_name"))

        // Filter as you type.
        try tmux.type("/launch")
        try tmux.wait("the filter to hide user_name") { $0.contains("/launch") && !$0.contains("user_name") }
        try tmux.keys("Enter")

        // A value the type cannot hold is refused in the prompt; a good one is written to disk.
        try tmux.type("e")
        try tmux.wait(for: "edit launch_count")
        try tmux.keys("C-u")
        try tmux.type("many")
        try tmux.keys("Enter")
        try tmux.wait(for: "not a whole number")
        try tmux.keys("C-u")
        try tmux.type("9")
        try tmux.keys("Enter")
        try tmux.wait(for: "saved launch_count")
        #expect((try sandbox.readSuite("com.example.app", in: folder)["launch_count"] as? NSNumber)?.intValue == 9)

        // Delete after confirming.
        try tmux.keys("Escape")
        try tmux.wait(for: "user_name")
        try tmux.type("/user_name")
        try tmux.keys("Enter")
        try tmux.type("d")
        try tmux.wait(for: "(y/n)")
        try tmux.type("y")
        try tmux.wait(for: "deleted user_name")
        #expect(try sandbox.readSuite("com.example.app", in: folder)["user_name"] == nil)
        try tmux.keys("Escape")
        try tmux.wait(for: "theme")

        // A change made by another process appears, when this build has `watch`.
        let title = try tmux.screen().split(separator: "\n").first.map(String.init) ?? ""
        if title.contains("not live") {
            print("InspectorEndToEndTests: skipping the live-update step: this agent has no `watch` method yet")
        } else {
            let set = try sandbox.jarvis("set", "com.example.app", "theme", "solarized")
            #expect(set.status == 0, "\(set.stderr)")
            try tmux.wait(for: "solarized")
        }

        // q quits and leaves the alternate screen: the shell's output is back.
        try tmux.type("q")
        try tmux.wait(for: "and quit? (y/n)")
        try tmux.type("y")
        let after = try tmux.wait(for: "INSPECT-EXITED-0")
        #expect(!after.contains("jarvis inspect"))
    }

    /// `s` cycles the order the model sorts by, and the header says which; the browser
    /// inspector's headers sort the same way.
    @Test func sCyclesTheSortAndTheHeaderShowsIt() throws {
        try sandbox.writeSuite("numbers", in: folder, ["key10": 10, "key2": "b", "key1": 30, "key3": true])
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; echo INSPECT-EXITED-$?; sleep 60", environment: sandbox.environment,
            folder: sandbox.root)
        try tmux.wait(for: "numbers")
        try tmux.type("/numbers")
        try tmux.keys("Enter")
        try tmux.keys("Enter")
        try tmux.wait(for: "sort: key ↑")
        /// The keys in the order the screen shows them.
        func order(_ screen: String) -> [String] {
            screen.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("key") && $0.count > 3 && $0.dropFirst(3).allSatisfy(\.isNumber) }
                    .map(String.init)
            }
        }
        #expect(order(try tmux.screen()) == ["key1", "key2", "key3", "key10"])
        try tmux.type("s")
        let reversed = try tmux.wait(for: "sort: key ↓")
        #expect(order(reversed) == ["key10", "key3", "key2", "key1"], "\(reversed)")
        try tmux.type("s")
        try tmux.wait(for: "sort: type ↑")
        try tmux.type("s")
        try tmux.wait(for: "sort: type ↓")
        try tmux.type("s")
        // By value: the boolean, the numbers as numbers, then the text.
        let byValue = try tmux.wait(for: "sort: value ↑")
        #expect(order(byValue) == ["key3", "key10", "key1", "key2"], "\(byValue)")
        try tmux.type("q")
    }

    @Test func enterOpensNestedValuesAndEEditsOnlyTheLeaf() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; echo INSPECT-EXITED-$?; sleep 60", environment: sandbox.environment,
            folder: sandbox.root, columns: 80, rows: 24)
        try tmux.wait(for: "com.example.app")
        try tmux.keys("Enter")
        try tmux.wait(for: "launch_count")
        // A dictionary shows as plain JSON in its row, and Enter opens its members as rows.
        try tmux.type("/profile")
        try tmux.wait("the filter to leave profile") { $0.contains("/profile") && !$0.contains("user_name") }
        try tmux.keys("Enter")
        try tmux.keys("Enter")
        try tmux.wait(for: "MEMBER")
        #expect(try tmux.screen().contains("tags"))
        try tmux.keys("Enter")
        try tmux.wait(for: "profile › tags")
        // e on a nested leaf edits only that leaf, with a pointer.
        try tmux.type("e")
        try tmux.wait(for: "edit profile/tags/0")
        try tmux.keys("C-u")
        try tmux.type("rust")
        try tmux.keys("Enter")
        try tmux.wait(for: "saved profile/tags/0")
        let profile = try sandbox.readSuite("com.example.app", in: folder)["profile"] as? [String: Any]
        #expect(profile?["tags"] as? [String] == ["rust", "b"])
        // Esc goes back up, one level at a time.
        try tmux.keys("Escape")
        try tmux.wait("the profile's members") { $0.contains("MEMBER") && !$0.contains("profile › tags") }
        try tmux.keys("Escape")
        try tmux.wait(for: "KEY")
        try tmux.type("q")
        try tmux.wait(for: "and quit? (y/n)")
        try tmux.type("y")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    @Test func aMaskedSecretIsReplacedOnlyOnPurposeNeverByAnEmptyField() throws {
        let vault = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        let token = vault.appendingPathComponent("api_token")
        try Data("hunter2".utf8).write(to: token)
        chmod(token.path, 0o600)
        try sandbox.startAgent(["--secrets-dir", vault.path])
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; echo INSPECT-EXITED-$?; sleep 60", environment: sandbox.environment,
            folder: sandbox.root, columns: 80, rows: 24)
        try tmux.wait(for: "vault")
        try tmux.keys("Enter")
        try tmux.wait(for: "api_token")
        // e on the mask opens no field (Enter used to store "" over the secret): it says why.
        try tmux.type("e")
        try tmux.wait(for: "api_token is a masked secret")
        #expect(try !tmux.screen().contains("Enter saves"))
        try tmux.keys("Enter")
        try tmux.keys("Escape")
        try tmux.wait(for: "api_token")
        #expect(try String(contentsOf: token, encoding: .utf8) == "hunter2")
        // R replaces on purpose: an empty field is refused, typing shows dots, and y/n asks.
        try tmux.type("R")
        try tmux.wait(for: "replace secret api_token")
        try tmux.keys("Enter")
        try tmux.wait(for: "an empty value is never saved over a secret")
        try tmux.type("s3cret")
        try tmux.wait(for: "••••••")
        #expect(try !tmux.screen().contains("s3cret"))
        try tmux.keys("Enter")
        try tmux.wait(for: "Replace the secret api_token")
        try tmux.type("n")
        try tmux.wait(for: "not saved")
        #expect(try String(contentsOf: token, encoding: .utf8) == "hunter2")
        try tmux.type("R")
        try tmux.wait(for: "replace secret api_token")
        try tmux.type("s3cret")
        try tmux.keys("Enter")
        try tmux.wait(for: "(y/n)")
        try tmux.type("y")
        try tmux.wait(for: "replaced secret api_token")
        #expect(try String(contentsOf: token, encoding: .utf8) == "s3cret")
        try tmux.type("q")
        try tmux.wait(for: "and quit? (y/n)")
        try tmux.type("y")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    @Test func productionShowsTheBadgeAndTheAgentsRefusal() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path, "--production"])
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; echo INSPECT-EXITED-$?; sleep 60", environment: sandbox.environment,
            folder: sandbox.root, columns: 80, rows: 24)
        try tmux.wait(for: "READ-ONLY")
        try tmux.keys("Enter")
        try tmux.wait(for: "launch_count")
        // Nothing offers an edit: e, n and d say why instead of opening a prompt.
        try tmux.type("e")
        try tmux.wait(for: "READ-ONLY: this agent runs the production configuration")
        #expect(try !tmux.screen().contains("Enter saves"))
        try tmux.type("d")
        try tmux.wait(for: "READ-ONLY: this agent runs the production configuration")
        #expect(try !tmux.screen().contains("(y/n)"))
        #expect(try sandbox.readSuite("com.example.app", in: folder)["launch_count"] as? NSNumber == 3)
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    /// Killed by a signal (SIGTERM from another process, SIGINT, SIGHUP), the inspector puts the
    /// terminal back before it ends: the shell after it echoes and reads lines again, and the
    /// normal screen is back. The handlers read what to restore from signal-safe cells.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalPutsTheTerminalBack(_ signal: Int32) throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let jarvis = try Binaries.url("jarvis").path
        let pidFile = sandbox.root.appendingPathComponent("inspect.pid")
        let tmux = try Tmux(
            command:
                "echo BEFORE-INSPECT; sh -c 'echo $$ > \"\(pidFile.path)\"; exec \"\(jarvis)\" inspect'; "
                + "echo INSPECT-EXITED-$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' "
                + "| tr '\\n' ' '; echo STTY-DONE; sleep 60",
            environment: sandbox.environment, folder: sandbox.root)
        try tmux.wait(for: "com.example.app")
        let pid = try #require(pid_t(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, signal) == 0)
        let screen = try tmux.wait(for: "STTY-DONE")
        #expect(screen.contains("INSPECT-EXITED-\(128 + signal)"), "\(screen)")
        #expect(screen.contains("icanon echo STTY-DONE"), "the terminal was left raw: \(screen)")
        #expect(screen.contains("BEFORE-INSPECT"), "the alternate screen was not left: \(screen)")
        #expect(!screen.contains("com.example.app"), "\(screen)")
    }
}
