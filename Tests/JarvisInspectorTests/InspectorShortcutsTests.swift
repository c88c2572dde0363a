import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The model's decisions behind the terminal's one-key edits (Space, Tab), new array
/// elements, an agent that goes away and comes back, and the agent list.
@Suite struct InspectorShortcutsTests {
    typealias Kind = InspectorSessionTests.Kind

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "defaults", container: "com.example.app", key: key)
    }
    let debug = PreferenceAddress(scanner: "files", container: "app.json", key: "debug")

    @Test func quickTextTogglesABooleanAndCyclesTheCatalogsChoices() {
        let place = address("flag")
        let flag = ValueDraft(address: place, type: .boolean, text: "true", expectedRevision: nil)
        #expect(flag.quickText(.toggle) == "false")
        #expect(ValueDraft(address: place, type: .boolean, text: "false", expectedRevision: nil).quickText(.toggle) == "true")
        #expect(flag.quickText(.nextChoice) == nil)
        var choice = ValueDraft(
            address: place, type: .string, text: "dark", choices: [.string("light"), .string("dark"), .string("system")],
            expectedRevision: nil)
        #expect(choice.quickText(.nextChoice) == "system")
        choice.text = "system"
        #expect(choice.quickText(.nextChoice) == "light")
        // A stored value the catalog does not list moves to the first it does.
        choice.text = "sepia"
        #expect(choice.quickText(.nextChoice) == "light")
        #expect(choice.quickText(.toggle) == nil)
        #expect(ValueDraft(address: place, type: .string, text: "x", expectedRevision: nil).quickText(.toggle) == nil)
    }

    @Test(arguments: Kind.allCases) func rowsOfferQuickEditsAndSavingThemSendsTheRevision(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        #expect(state.row(for: debug)?.quickEdit == .toggle)
        #expect(state.row(for: address("theme"))?.quickEdit == .nextChoice)
        #expect(state.row(for: address("user_name"))?.quickEdit == nil)
        let port = InspectorRow.Target.member(
            PreferenceAddress(scanner: "files", container: "app.json", key: "server"), JSONPointer(tokens: ["port"]))
        #expect(state.rows(.value(port.address!, JSONPointer(tokens: []))).first { $0.target == port }?.quickEdit == nil)

        let toggled = try session.quickEdit(.key(debug), .toggle)
        #expect(toggled.text == "false")
        guard case .saved(let item) = toggled.outcome else { Issue.record("not saved: \(toggled.outcome)"); return }
        #expect(item.value == .boolean(false))
        #expect(toggled.outcome.message(toggled.draft).text.hasPrefix("saved debug = false"))
        let file = try String(contentsOf: fixture.files.appendingPathComponent("app.json"), encoding: .utf8)
        #expect(file.contains("\"debug\": false") || file.contains("\"debug\":false"))
        // Unset with a default: the next choice after the default.
        let cycled = try session.quickEdit(.key(address("theme")), .nextChoice)
        #expect(cycled.text == "light")
        #expect(try fixture.readSuite("com.example.app")["theme"] as? String == "light")
        #expect(try session.quickEdit(.key(address("theme")), .nextChoice).text == "dark")
        #expect(throws: JarvisError.self) { try session.quickEdit(.key(address("user_name")), .toggle) }
        #expect(InspectorMessage.noQuickEdit(.toggle, try #require(state.row(for: address("user_name")))).text
            == "user_name is not a boolean: Space toggles only true/false")
    }

    /// A quick edit that meets a newer value behaves as any conflicted save: nothing is
    /// written, the draft survives with the user's next value, and it overwrites theirs only
    /// when saved again (before, the face was told to "save again" with nothing kept).
    @Test(arguments: Kind.allCases) func aQuickEditThatMeetsANewerValueKeepsItsDraftForOverwriteOrKeepTheirs(
        _ kind: Kind
    ) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let theme = address("theme")
        // Someone else stores "dark" after the session read theme as unset (its default, system).
        let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
        try other.set(theme, to: "dark")
        other.close()
        let result = try session.quickEdit(.key(theme), .nextChoice)
        #expect(result.text == "light")
        guard case .conflict(let now) = result.outcome else { Issue.record("expected a conflict: \(result.outcome)"); return }
        #expect(now?.value == "dark")
        #expect(try fixture.readSuite("com.example.app")["theme"] as? String == "dark")
        let conflict = try #require(result.conflict)
        #expect(conflict.heading == "theme changed while you edited it")
        #expect(conflict.theirs == "dark" && conflict.yours == "light")
        let kept = try #require(result.kept)
        #expect(kept.address == theme && kept.expectedRevision == now?.revision)
        // Writing mine overwrites theirs at the revision stored now.
        guard case .saved(let item) = try session.save(kept, text: result.text) else {
            Issue.record("writing mine after the conflict must save"); return
        }
        #expect(item.value == "light")
        #expect(try fixture.readSuite("com.example.app")["theme"] as? String == "light")
        // Saved at once: nothing is kept.
        let toggled = try session.quickEdit(.key(debug), .toggle)
        #expect(toggled.kept == nil && toggled.conflict == nil)
    }

    @Test(arguments: Kind.allCases) func anArrayGainsAnElementTypedLikeItsSiblings(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let profile = address("profile")
        let tags = JSONPointer(tokens: ["tags"])
        let state = session.state
        // From the array's own level, or from a row holding one; not from a dictionary.
        #expect(state.appendTarget(in: .value(profile, tags), selected: nil) == .member(profile, tags))
        #expect(state.appendTarget(in: .value(profile, JSONPointer(tokens: [])), selected: nil) == nil)
        let tagsRow = state.rows(.value(profile, JSONPointer(tokens: []))).first { $0.title == "tags" }
        #expect(tagsRow?.isAppendable == true)
        #expect(state.appendTarget(in: .value(profile, JSONPointer(tokens: [])), selected: tagsRow) == .member(profile, tags))
        #expect(state.row(for: profile)?.isAppendable == false)

        let draft = try session.appendDraft(to: .member(profile, tags))
        #expect(draft.pointer == JSONPointer(tokens: ["tags", "2"]) && draft.type == .string && draft.isAppend)
        #expect(draft.title == "profile/tags/2" && draft.text == "")
        let outcome = try session.save(draft, text: "linux")
        #expect(outcome.message(draft).text.hasPrefix("saved profile/tags/2 = linux"))
        let stored = try fixture.readSuite("com.example.app")["profile"] as? [String: Any]
        #expect(stored?["tags"] as? [String] == ["swift", "ios", "linux"])
        #expect(throws: JarvisError.self) { try session.appendDraft(to: .key(profile)) }
    }

    @Test func inProductionNothingOffersAQuickEditOrAnAppend() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(
            .inProcess, fixture, InspectorFixture.configuration(production: true))
        defer { session.close(); agent.stop() }
        let state = session.state
        #expect(state.row(for: debug)?.quickEdit == nil)
        #expect(state.row(for: address("theme"))?.quickEdit == nil)
        let profile = address("profile")
        #expect(state.appendTarget(in: .value(profile, JSONPointer(tokens: ["tags"])), selected: nil) == nil)
        #expect(throws: JarvisError.self) { try session.quickEdit(.key(debug), .toggle) }
    }

    @Test func whenTheAgentGoesAwayNothingIsEditableUntilANewSession() throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        let session = InspectorSession(source: try RemoteSource(endpoint: agent.endpoint))
        defer { session.close() }
        session.startLive()
        try session.load()
        #expect(session.state.canEdit && !session.state.isGone)
        let before = session.state
        agent.stop()
        try eventually("the feed to end") { session.state.isGone }
        let state = session.state
        #expect(!state.canEdit && !state.isLive)
        #expect(state.row(for: address("user_name"))?.isEditable == false)
        #expect(state.row(for: debug)?.quickEdit == nil)
        #expect(InspectorMessage.agentGone(state).text.hasPrefix("inspector-test is gone ("))
        #expect(throws: JarvisError.self) { try session.draft(for: .key(address("user_name"))) }
        #expect(InspectorSession.readOnlyMessage(state) == InspectorMessage.waitingForAgent.text)
        var reconnection = InspectorReconnection(selector: "inspector-test", state: before)
        #expect(reconnection.isGone(state) && !reconnection.canEdit(state))
        let now = ContinuousClock.now
        let first = reconnection.shouldTry(state, now: now)
        let tooSoon = reconnection.shouldTry(state, now: now + .milliseconds(500))
        #expect(first && !tooSoon)
        // Back: a new session catches up with what changed meanwhile.
        try fixture.writeSuite("com.example.app", ["user_name": "Grace", "launch_count": 3, "volume": 0.5])
        let again = try fixture.agent()
        defer { again.stop() }
        let fresh = InspectorSession(source: try RemoteSource(endpoint: again.endpoint))
        defer { fresh.close() }
        try fresh.load()
        #expect(fresh.state.canEdit && !fresh.state.isGone)
        let message = fresh.catchUp(from: state)
        #expect(message.text.hasPrefix("the agent is back; ") && message.text.contains("user_name"))
    }

    @Test func aFilterMatchesFoldedRowsAsItMatchesRowsAndKnowsWhenItNarrows() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        let rows = session.state.tableRows(scanner: nil, container: nil)
        for text in ["", "NAME", "ada", "ß", "*count", "l?cal*", "8080", "zzz", "é"] {
            let filter = InspectorFilter(text)
            #expect(rows.map { filter.matches(folded: InspectorFilter.Folded($0)) } == rows.map(filter.matches))
        }
        #expect(InspectorFilter.contains("user_name", "name") && !InspectorFilter.contains("name", "user_name"))
        #expect(InspectorFilter.contains("héllo", "él") && InspectorFilter.contains("x", ""))
        #expect(InspectorFilter("user_n").narrows(InspectorFilter("user")))
        #expect(!InspectorFilter("user").narrows(InspectorFilter("user_n")))
        #expect(!InspectorFilter("us*").narrows(InspectorFilter("us")))
    }

    @Test func valueTextCostsWhatItShowsAndAcceptsNoLimit() {
        let big = String(repeating: "a", count: 1_000_000)
        // `jarvis get` asks for the whole value (Int.max): nothing may overflow.
        #expect(ValueFormat.full(.string("x"), limit: .max) == "x")
        #expect(ValueFormat.full(.boolean(true), limit: .max) == "true")
        #expect(ValueFormat.full(.dictionary(["k": .string("v")]), limit: .max).contains("\"k\": \"v\""))
        #expect(ValueFormat.full(.data(Data([1, 2, 3])), limit: .max) == "AQID")
        #expect(ValueFormat.preview(.dictionary(["k": .string(big)]), limit: 20).count == 20)
        #expect(ValueFormat.preview(.string(big), limit: 20) == String(repeating: "a", count: 19) + "…")
        let blob = ValueFormat.full(.data(Data(count: 1_000_000)), limit: 100)
        #expect(blob.hasSuffix("(shortened: the value is larger than 100 characters)"))
        #expect(blob.count < 200)
    }

    /// The agent list's watch sees an agent start and stop, with what a new one allows, and
    /// tells its face each time.
    @Test func theAgentWatchFollowsAgentsThatStartAndStop() throws {
        let fixture = try InspectorFixture()
        let environment = [
            "JARVIS_RUNTIME_DIR": fixture.root.appendingPathComponent("run").path, "HOME": fixture.root.path,
        ]
        let told = Locked(0)
        let watch = InspectorAgentWatch(agents: [], interval: .milliseconds(50), environment: environment) {
            told.withLock { $0 += 1 }
        }
        let agent = try fixture.agent()
        try eventually("the started agent to be listed") { watch.agents.map(\.record.name) == ["inspector-test"] }
        #expect(watch.agents.first?.access == "editing allowed")
        agent.stop()
        try eventually("the stopped agent to go") { watch.agents.isEmpty }
        watch.stop()
        #expect(told.current >= 2)
    }

    @Test func theAgentListSaysWhatEachAgentAllows() {
        func capabilities(editing: Bool, production: Bool) -> Wire.Capabilities {
            Wire.Capabilities(
                editing: editing, reveal: false, production: production, maxLineLength: 1 << 20, tcp: false,
                auth: .none)
        }
        #expect(InspectorAgent.access(capabilities(editing: false, production: true)) == "production: read-only")
        #expect(InspectorAgent.access(capabilities(editing: true, production: false)) == "editing allowed")
        #expect(InspectorAgent.access(capabilities(editing: false, production: false)) == "read-only")
        #expect(InspectorAgent.access(nil) == "not answering")
        #expect(
            InspectorMessage.leaveQuestion(agent: "demo", toAgentList: false) == "Disconnect from demo and quit?")
        #expect(
            InspectorMessage.leaveQuestion(agent: "demo", toAgentList: true)
                == "Disconnect from demo and go back to the agent list?")
    }
}
