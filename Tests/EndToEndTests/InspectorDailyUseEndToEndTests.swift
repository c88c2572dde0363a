import Foundation
import JarvisCore
import JarvisRemote
import JarvisTestSupport
import Testing

/// `jarvis inspect` for daily use, in a real terminal (tmux) against the real `jarvis-agent`:
/// the all-keys home, one-key edits, new array elements, asking before disconnecting, and an
/// agent that goes away and comes back.
@Suite(
    .serialized,
    .enabled(if: Tmux.isAvailable || OptionalTool.inCI, OptionalTool.hint(["tmux"], install: "apt-get install tmux")))
struct InspectorDailyUseEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    let jarvis: String

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Ada", "launch_count": 3])
        try sandbox.writeSuite("com.example.other", in: folder, ["other_name": "Grace", "volume": 0.5])
        jarvis = try Binaries.url("jarvis").path
    }

    func inspect(_ arguments: String = "") throws -> Tmux {
        try Tmux(
            command: "'\(jarvis)' inspect \(arguments); echo INSPECT-EXITED-$?; sleep 60",
            environment: sandbox.environment, folder: sandbox.root, columns: 80, rows: 24)
    }

    /// What `jarvis get` prints for a key.
    func get(_ container: String, _ key: String) throws -> String {
        let result = try sandbox.jarvis("get", container, key)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func allKeysListsEveryContainerWithOneFilterAndLeavingAsksFirst() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let tmux = try inspect()
        // One scanner: it opens on its containers; one step back is the scanner list, whose
        // first entry holds every key.
        try tmux.wait(for: "com.example.other")
        try tmux.keys("Escape")
        try tmux.wait(for: "All keys")
        try tmux.keys("Home", "Enter")
        try tmux.wait(for: "all keys")
        let all = try tmux.wait(for: "other_name")
        #expect(all.contains("user_name") && all.contains("launch_count") && all.contains("com.example.other"))
        // One filter narrows across both containers.
        try tmux.type("/name")
        try tmux.wait("the filter to leave the two names") {
            $0.contains("user_name") && $0.contains("other_name") && !$0.contains("launch_count")
        }
        try tmux.keys("Enter")
        // Esc clears the filter, then goes back to the scanner list.
        try tmux.keys("Escape")
        try tmux.wait(for: "launch_count")
        try tmux.keys("Escape")
        try tmux.wait(for: "SCANNER")
        // Leaving the last level disconnects: it asks, and n stays.
        try tmux.keys("Escape")
        let question = try tmux.wait(for: "Disconnect from jarvis-agent and quit? (y/n)")
        #expect(question.split(separator: "\n").allSatisfy { $0.count <= 80 })
        try tmux.type("n")
        try tmux.wait(for: "still connected")
        try tmux.keys("Left")
        try tmux.wait(for: "Disconnect from jarvis-agent and quit?")
        try tmux.type("n")
        try tmux.wait(for: "still connected")
        // q asks the same; y quits.
        try tmux.type("q")
        try tmux.wait(for: "Disconnect from jarvis-agent and quit?")
        try tmux.type("y")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    @Test func theAgentListSaysWhatEachAgentAllowsAndLeavingAnAgentAsksFirst() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "shop-prod", "--production"])
        try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "shop-dev"])
        let tmux = try inspect()
        let list = try tmux.wait(for: "agents (2 running)")
        let lines = list.split(separator: "\n")
        #expect(lines.contains { $0.contains("shop-prod") && $0.contains("production: read-only") })
        #expect(lines.contains { $0.contains("shop-dev") && $0.contains("editing allowed") })
        #expect(lines.allSatisfy { $0.count <= 80 })
        // Open the one that allows editing; back from its scanner list asks before disconnecting.
        try tmux.type("/shop-dev")
        try tmux.keys("Enter", "Enter")
        try tmux.wait(for: "jarvis inspect · shop-dev")
        try tmux.wait(for: "com.example.app")
        try tmux.keys("Escape")
        try tmux.wait(for: "SCANNER")
        try tmux.keys("Escape")
        try tmux.wait(for: "Disconnect from shop-dev and go back to the agent list? (y/n)")
        try tmux.type("y")
        try tmux.wait(for: "agents (2 running)")
        try tmux.type("q")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    /// The agent list follows the agents while it is open: one that starts appears, one that
    /// stops goes, and what is left opens as before.
    @Test func theAgentListShowsAgentsThatStartAndStopWhileItIsOpen() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "shop-one"])
        try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "shop-two"])
        let tmux = try inspect()
        try tmux.wait(for: "agents (2 running)")
        let late = try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "shop-late", "--production"])
        let three = try tmux.wait("the agent started meanwhile") {
            $0.contains("agents (3 running)") && $0.contains("shop-late")
        }
        #expect(three.split(separator: "\n").contains { $0.contains("shop-late") && $0.contains("production: read-only") })
        late.terminate()
        late.waitUntilExit()
        try tmux.wait("the stopped agent to go") { $0.contains("agents (2 running)") && !$0.contains("shop-late") }
        try tmux.type("/shop-two")
        try tmux.keys("Enter", "Enter")
        try tmux.wait(for: "jarvis inspect · shop-two")
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    /// A new key's type is asked among the types the agent says its container stores: a
    /// JSON file offers no date or data, and a date is refused before anything is sent.
    @Test func aNewKeyOffersOnlyTheTypesItsContainerStores() throws {
        let files = sandbox.root.appendingPathComponent("json")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let file = files.appendingPathComponent("app.json")
        try Data(#"{"name": "Ada"}"#.utf8).write(to: file)
        try sandbox.startAgent(["--files", files.path])
        let tmux = try inspect()
        try tmux.wait(for: "app.json")
        try tmux.keys("Enter")
        try tmux.wait(for: "name")
        try tmux.type("n")
        try tmux.wait(for: "new key in files:app.json")
        try tmux.type("port")
        try tmux.keys("Enter")
        let asked = try tmux.wait(for: "type of port: string, integer, real, boolean, array, dictionary")
        #expect(!asked.contains("date"), "\(asked)")
        try tmux.keys("C-u")
        try tmux.type("date")
        try tmux.keys("Enter")
        try tmux.wait(for: "app.json cannot store date")
        try tmux.keys("C-u")
        try tmux.type("integer")
        try tmux.keys("Enter")
        try tmux.wait(for: "value of port")
        try tmux.keys("C-u")
        try tmux.type("8080")
        try tmux.keys("Enter")
        try tmux.wait(for: "saved port = 8080")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("8080"))
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    @Test func spaceTogglesTabCyclesChoicesAndArraysGainElements() throws {
        try sandbox.startAgent(["--demo"])
        let tmux = try inspect()
        try tmux.wait(for: "All keys")
        try tmux.keys("Home", "Enter")
        try tmux.wait(for: "all keys")
        // Space toggles a boolean, saved at once.
        try tmux.type("/onboarding_done")
        try tmux.keys("Enter")
        try tmux.wait(for: "Space toggle")
        try tmux.keys("Space")
        let first = try tmux.wait(for: "saved onboarding_done = ").contains("saved onboarding_done = true")
        // Space again flips it back: each press is the opposite of what is stored.
        let flipped = first ? "false" : "true"
        try tmux.keys("Space")
        try tmux.wait(for: "saved onboarding_done = \(flipped)")
        #expect(try get("com.example.demo.prefs", "onboarding_done").contains(flipped))
        // Tab moves a catalogued choice to the catalog's next value (unset: after the default).
        try tmux.keys("Escape")
        try tmux.type("/th?me")
        try tmux.keys("Enter")
        try tmux.wait(for: "Tab next choice")
        try tmux.keys("Tab")
        try tmux.wait(for: "saved theme = light")
        #expect(try get("com.example.demo.prefs", "theme").contains("light"))
        try tmux.keys("Tab")
        try tmux.wait(for: "saved theme = dark")
        #expect(try get("com.example.demo.prefs", "theme").contains("dark"))
        // Space on a string says what it does instead of changing anything.
        try tmux.keys("Escape")
        try tmux.type("/user_name")
        try tmux.keys("Enter")
        try tmux.keys("Space")
        try tmux.wait(for: "user_name is not a boolean")
        // An array gains an element at its end, typed like the others.
        try tmux.keys("Escape")
        try tmux.type("/recent_searches")
        try tmux.keys("Enter")
        try tmux.wait(for: "a add element")
        try tmux.keys("Enter")
        try tmux.wait(for: "MEMBER")
        try tmux.type("a")
        try tmux.wait(for: "new element recent_searches/")
        try tmux.keys("C-u")
        try tmux.type("from tmux")
        try tmux.keys("Enter")
        try tmux.wait(for: "= from tmux")
        #expect(try get("com.example.demo.prefs", "recent_searches").contains("from tmux"))
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    /// A one-key edit (Space, Tab) that meets a newer value behaves as any conflicted save:
    /// the edit stays open with the user's value and the conflict's message, Enter overwrites
    /// theirs and Esc keeps it. The other writer lands between the inspector's read and its
    /// write every time: a relay in front of the real agent writes just before it passes the
    /// inspector's `set` on.
    @Test func spaceThatMeetsANewerValueKeepsTheEditOpenAndEnterOverwrites() throws {
        try sandbox.writeSuite("com.example.app", in: folder, ["debug": false, "user_name": "Ada"])
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let socket = try #require(agent.record.socket)
        let place = Wire.Place(container: "com.example.app", key: "debug")
        let relay = try RaceProxy(path: sandbox.root.appendingPathComponent("relay.sock").path, agentSocket: socket) {
            let other = try? JarvisClient(endpoint: .unix(path: socket), clientName: "other", timeout: .seconds(20))
            _ = try? other?.set(place, to: .boolean(true))
            other?.close()
        }
        sandbox.environmentOverrides["JARVIS_AGENT"] = relay.path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; echo INSPECT-EXITED-$?; sleep 60",
            environment: sandbox.environment, folder: sandbox.root, columns: 80, rows: 24)
        try tmux.wait(for: "com.example.other")
        try tmux.keys("Home", "Enter")
        try tmux.wait(for: "user_name")
        try tmux.type("/debug")
        try tmux.keys("Enter")
        try tmux.wait(for: "Space toggle")
        try tmux.keys("Space")
        // Not a dead end saying "save again": the edit is open with the value Space made.
        let conflict = try tmux.wait("the edit prompt holding true under the conflict") {
            $0.contains("someone else changed debug") && $0.split(separator: "\n").contains { $0.hasPrefix("> true") }
        }
        #expect(conflict.contains("text is kept"), "\(conflict)")
        #expect(try sandbox.jarvis("get", "com.example.app", "debug").stdout.contains("true"))
        try tmux.keys("Enter")
        try tmux.wait(for: "saved debug = true")
        #expect(try sandbox.jarvis("get", "com.example.app", "debug").stdout.contains("true"))
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
        withExtendedLifetime(relay) {}
    }

    @Test func aTenMegabyteValueAnd200LevelsStayReadableIn80Columns() throws {
        var nested: Any = "bottom"
        for _ in 0..<200 { nested = ["d": nested] }
        let big = String(repeating: "0123456789abcdef ", count: 10 * 1024 * 1024 / 17)
        let values: [String: Any] = ["big": big, "deep": nested]
        try sandbox.writeSuite("com.example.large", in: folder, values)
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let tmux = try inspect()
        try tmux.wait(for: "com.example.large")
        try tmux.type("/large")
        try tmux.keys("Enter", "Enter")
        // The row shows a line of the 10 MB string; its detail wraps it and scrolls.
        try tmux.wait(for: "0123456789abcdef 0123")
        try tmux.keys("Enter")
        let detail = try tmux.wait(for: "lines 1-")
        #expect(detail.split(separator: "\n").allSatisfy { $0.count <= 80 })
        try tmux.keys("End")
        try tmux.wait(for: "(shortened: the value is larger than")
        try tmux.keys("Escape")
        // 200 levels, a level at a time: the breadcrumb keeps its end and counts the levels.
        try tmux.keys("Down")
        for _ in 0..<200 { try tmux.keys("Enter") }
        let deep = try tmux.wait(for: "(202 levels)")
        #expect(deep.contains("bottom") && deep.split(separator: "\n").allSatisfy { $0.count <= 80 })
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    @Test func whenTheAgentGoesAwayNothingIsEditableAndItReconnectsByName() throws {
        let agent = try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "phoenix"])
        let tmux = try inspect()
        try tmux.wait(for: "com.example.app")
        try tmux.keys("Enter")
        try tmux.wait(for: "e edit")
        #expect(try tmux.screen().contains("  live"))
        agent.terminate()
        agent.waitUntilExit()
        // Gone: the title says so, and nothing offers or allows an edit.
        let gone = try tmux.wait(for: "gone, reconnecting")
        #expect(!gone.contains("e edit"))
        try tmux.type("e")
        try tmux.wait(for: "the agent is gone")
        #expect(try !tmux.screen().contains("Enter saves"))
        // Back under the same name (a new pid): it reconnects and says what changed meanwhile.
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Grace", "launch_count": 3])
        try sandbox.startAgent(["--defaults-dir", folder.path, "--name", "phoenix"])
        try tmux.wait(for: "the agent is back; 1 key changed while it was gone")
        try tmux.wait(for: "Grace")
        try tmux.wait(for: "e edit")
        #expect(try !tmux.screen().contains("gone, reconnecting"))
        try tmux.type("e")
        try tmux.wait(for: "Enter saves")
        try tmux.keys("Escape")
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }

    @Test func slashAtTheTopFindsKeysInEveryContainerAndATimelineRevertsChanges() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        #expect(try sandbox.jarvis("set", "com.example.app", "user_name", "Bea").status == 0)
        #expect(try sandbox.jarvis("set", "com.example.app", "user_name", "Cy").status == 0)
        let tmux = try inspect()
        // One scanner: the first page lists containers, one step back is the scanner list,
        // where `/` looks for keys in every container.
        try tmux.wait(for: "com.example.other")
        try tmux.keys("Escape")
        try tmux.wait(for: "SCANNER")
        try tmux.type("/other_n")
        let found = try tmux.wait(for: "other_name")
        #expect(!found.contains("nothing matches"), "\(found)")
        try tmux.keys("Escape")
        try tmux.keys("Escape")
        try tmux.wait(for: "SCANNER")
        try tmux.type("/user_name")
        try tmux.wait(for: "Cy")
        try tmux.keys("Enter")
        // t opens the key's timeline, newest first; Enter reverts the change under the cursor.
        try tmux.type("t")
        let timeline = try tmux.wait(for: "Enter revert")
        #expect(timeline.contains("#2") && timeline.contains("#1") && timeline.contains("\"Bea\" → \"Cy\""), "\(timeline)")
        try tmux.keys("Enter")
        try tmux.wait(for: "undid #2")
        try tmux.wait("the revert itself in the timeline") { $0.contains("undo of #2") && $0.contains("undone by #3") }
        #expect(try get("com.example.app", "user_name").contains("Bea"))
        // The first change is standing again (the key is where #1 left it): it reverts too.
        try tmux.keys("Down", "Down")
        try tmux.keys("Enter")
        try tmux.wait(for: "undid #1")
        #expect(try get("com.example.app", "user_name").contains("Ada"))
        // An entry already taken back is not reverted twice.
        try tmux.keys("Down")
        try tmux.keys("Enter")
        try tmux.wait(for: "cannot be taken back")
        #expect(try get("com.example.app", "user_name").contains("Ada"))
        try tmux.keys("C-c")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }
}
