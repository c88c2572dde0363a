import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The inspector model against real scanners (a property-list suite, a JSON file, secret
/// files) through a real agent: in process, and over its socket.
@Suite struct InspectorSessionTests {
    enum Kind: CaseIterable {
        case inProcess, remote

        /// A fresh source of this kind on `agent`.
        func source(_ agent: JarvisAgent) throws -> any InspectorSource {
            self == .inProcess ? InProcessSource(agent: agent) : try RemoteSource(endpoint: agent.endpoint)
        }
    }

    /// A loaded session of `kind` on the fixture, and what keeps it alive.
    func session(
        _ kind: Kind, _ fixture: InspectorFixture,
        _ configuration: JarvisConfiguration = InspectorFixture.configuration()
    )
        throws -> (InspectorSession, JarvisAgent)
    {
        let agent = try fixture.agent(configuration)
        let session = InspectorSession(source: try kind.source(agent))
        try session.load()
        return (session, agent)
    }

    @Test(arguments: Kind.allCases) func navigatesFromScannersToAValueNestedInsideAKey(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        #expect(state.rows(.scanners).map(\.title) == ["defaults", "files", "secrets"])
        let suite = try #require(state.rows(.containers(scanner: "defaults")).first { $0.title == "com.example.app" })
        #expect(suite.isOpenable)
        let keys = state.rows(.keys(scanner: "defaults", container: "com.example.app"))
        #expect(keys.map(\.title) == ["launch_count", "profile", "theme", "user_name", "volume"])
        let profile = try #require(keys.first { $0.title == "profile" })
        #expect(profile.isOpenable && profile.count == 2 && profile.type == .dictionary)
        // Drill down: profile → tags → 0, each level's members are rows addressed by pointer.
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "profile")
        let members = state.rows(.value(address, JSONPointer(tokens: [])))
        #expect(members.map(\.title) == ["created", "tags"])
        #expect(members[0].type == .date && members[0].preview == "2023-11-14T22:13:20Z")
        let tags = state.rows(.value(address, JSONPointer(tokens: ["tags"])))
        #expect(tags.map(\.preview) == ["swift", "ios"])
        #expect(tags[0].target == .member(address, JSONPointer(tokens: ["tags", "0"])))
        #expect(
            InspectorLevel.value(address, JSONPointer(tokens: ["tags"])).parent
                == .value(address, JSONPointer(tokens: [])))
        // Segments: All, then one per scanner, with counts.
        let segments = state.segments()
        #expect(segments.map(\.title) == ["All"] + state.scanners.map(\.name))
        #expect(segments.map(\.scanner) == [nil, "defaults", "files", "secrets"])
        #expect(segments.first?.count == state.items.count)
        #expect(segments.dropFirst().map(\.count).reduce(0, +) == state.items.count)
    }

    @Test func filtersBySubstringOrGlob() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(.inProcess, fixture)
        defer { agent.stop() }
        let level = InspectorLevel.keys(scanner: "defaults", container: "com.example.app")
        #expect(session.state.rows(level, filter: InspectorFilter("NAME")).map(\.title) == ["user_name"])
        #expect(
            session.state.rows(level, filter: InspectorFilter("*_*")).map(\.title) == ["launch_count", "user_name"])
        #expect(session.state.rows(level, filter: InspectorFilter("v?lume")).map(\.title) == ["volume"])
        let sections = session.state.sections(scanner: nil, filter: InspectorFilter("port"))
        #expect(sections.map(\.container) == ["app.json"] && sections[0].rows.isEmpty == false)
    }

    @Test(arguments: Kind.allCases) func aCataloguedKeyWithNothingStoredIsUnsetWithItsDefault(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "theme")
        let row = try #require(session.state.row(for: address))
        #expect(row.preview == "unset (default: system)")
        #expect(row.has(.unset) && !row.has(.masked) && !row.isRevealable && !row.isDeletable)
        let detail = try #require(session.state.detail(address))
        #expect(!detail.facts.contains { $0.label == "revision" })
        #expect(detail.valueText == nil && detail.note == "the default applies: system")
        #expect(!detail.facts.contains { $0.text.contains("0000000000000000") })
        // It can be set: the catalog's allowed values are the choices, and it is sent as absent.
        let draft = try session.draft(for: row.target)
        #expect(draft.editor == .choice && draft.choices == ["light", "dark", "system"])
        #expect(throws: JarvisError.self) { try session.save(draft, text: "blue") }
        #expect(try fixture.readSuite("com.example.app")["theme"] == nil)
        guard case .saved(let item) = try session.save(draft, text: "dark") else {
            Issue.record("not saved")
            return
        }
        #expect(item.value == "dark")
        #expect(try fixture.readSuite("com.example.app")["theme"] as? String == "dark")
        #expect(session.state.row(for: address)?.has(.unset) == false)
    }

    @Test(arguments: Kind.allCases) func editsCheckTheTypeAndTheCatalogBeforeSendingAnything(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "launch_count")
        let draft = try session.draft(for: .key(address))
        #expect(draft.editor == .integer && draft.range == 0...100 && draft.text == "3")
        #expect(draft.hint == "integer: a whole number, 0 to 100")
        #expect(throws: JarvisError.self) { try session.save(draft, text: "many") }
        #expect(throws: JarvisError.self) { try session.save(draft, text: "101") }
        #expect((try fixture.readSuite("com.example.app")["launch_count"] as? NSNumber)?.intValue == 3)
        _ = try session.save(draft, text: "9")
        #expect((try fixture.readSuite("com.example.app")["launch_count"] as? NSNumber)?.intValue == 9)
        // Every type has its editor, and text becomes the type.
        let volume = try session.draft(
            for: .key(PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "volume")))
        #expect(volume.editor == .real)
        #expect(try volume.value(from: "0.75") == .real(0.75))
        #expect(ValueDraft(address: address, type: .boolean, text: "", expectedRevision: nil).editor == .toggle)
        #expect(ValueDraft(address: address, type: .date, text: "", expectedRevision: nil).editor == .date)
        #expect(ValueDraft(address: address, type: .data, text: "", expectedRevision: nil).editor == .data)
        #expect(try ValueDraft.parse("aGk=", as: .data) == .data(Data("hi".utf8)))
        #expect(
            try ValueDraft.parse("2024-01-15T10:00:00Z", as: .date) == .date(Date(timeIntervalSince1970: 1_705_312_800))
        )
        #expect(throws: JarvisError.self) { try ValueDraft.parse("maybe", as: .boolean) }
    }

    @Test(arguments: Kind.allCases) func aNestedLeafIsEditedInPlaceWithAPointer(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "profile")
        let draft = try session.draft(for: .member(address, JSONPointer(tokens: ["tags", "0"])))
        #expect(draft.title == "profile/tags/0" && draft.text == "swift" && draft.editor == .text)
        _ = try session.save(draft, text: "rust")
        let stored = try fixture.readSuite("com.example.app")["profile"] as? [String: Any]
        #expect(stored?["tags"] as? [String] == ["rust", "ios"])
        #expect(stored?["created"] is Date)
        #expect(session.state.rows(.value(address, JSONPointer(tokens: ["tags"]))).map(\.preview) == ["rust", "ios"])
        // A JSON file's real stays a real and is shown as plain JSON, never the wire encoding.
        let server = PreferenceAddress(scanner: "files", container: "app.json", key: "server")
        #expect(session.state.row(for: server)?.preview.contains("$real") == false)
        let write = try session.draft(for: .member(server, JSONPointer(tokens: ["write"])))
        #expect(write.text == "5.0" && write.editor == .real)
    }

    @Test(arguments: Kind.allCases) func aConflictShowsTheNewValueInsteadOfOverwritingIt(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        let draft = try session.draft(for: .key(address))
        let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
        try other.set(address, to: "Grace")
        other.close()
        let outcome = try session.save(draft, text: "Linus")
        guard case .conflict(let current) = outcome else {
            Issue.record("expected a conflict, got \(outcome)")
            return
        }
        #expect(current?.value == "Grace")
        #expect(session.state.row(for: address)?.preview == "Grace")
        #expect(try fixture.readSuite("com.example.app")["user_name"] as? String == "Grace")
    }

    @Test(arguments: Kind.allCases) func addDeleteBulkDeleteAndReset(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let suite = ("defaults", "com.example.app")
        #expect(throws: JarvisError.self) {
            try session.newDraft(scanner: suite.0, container: suite.1, key: "user_name", type: .string)
        }
        let new = try session.newDraft(scanner: suite.0, container: suite.1, key: "tmp_a", type: .integer)
        _ = try session.save(new, text: "1")
        _ = try session.save(
            try session.newDraft(scanner: suite.0, container: suite.1, key: "tmp_b", type: .string), text: "x")
        #expect(try fixture.readSuite("com.example.app")["tmp_a"] as? NSNumber == 1)
        // Preview, then delete what the glob matches.
        #expect(
            try session.deletePreview(scanner: suite.0, container: suite.1, matching: "tmp_*") == ["tmp_a", "tmp_b"])
        #expect(try fixture.readSuite("com.example.app")["tmp_b"] as? String == "x")
        #expect(try session.delete(scanner: suite.0, container: suite.1, matching: "tmp_*") == ["tmp_a", "tmp_b"])
        #expect(try fixture.readSuite("com.example.app")["tmp_a"] == nil)
        #expect(session.state.row(for: PreferenceAddress(scanner: suite.0, container: suite.1, key: "tmp_a")) == nil)
        // Delete one key; delete one member.
        let volume = PreferenceAddress(scanner: suite.0, container: suite.1, key: "volume")
        #expect(try session.delete(.key(volume)) == nil)
        #expect(try fixture.readSuite("com.example.app")["volume"] == nil)
        let profile = PreferenceAddress(scanner: suite.0, container: suite.1, key: "profile")
        try session.delete(.member(profile, JSONPointer(tokens: ["tags", "1"])))
        #expect(
            (try fixture.readSuite("com.example.app")["profile"] as? [String: Any])?["tags"] as? [String] == ["swift"])
        // Reset: the stored value goes, the catalog's default applies, shown as unset.
        let count = PreferenceAddress(scanner: suite.0, container: suite.1, key: "launch_count")
        let now = try session.reset(count)
        #expect(now.map(InspectorState.isUnset) == true)
        #expect(session.state.row(for: count)?.preview == "unset (default: 0)")
        #expect(try fixture.readSuite("com.example.app")["launch_count"] == nil)
    }

    @Test(arguments: Kind.allCases) func secretsAreMaskedUntilRevealedWhereTheAgentAllowsIt(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")
        let row = try #require(session.state.row(for: address))
        #expect(row.has(.masked) && row.isRevealable && !row.preview.contains("hunter2"))
        try session.reveal(address)
        let shown = try #require(session.state.row(for: address))
        #expect(shown.preview == "hunter2" && shown.has(.revealed))
        // The agent audited the reveal.
        #expect(agent.auditLog.records().contains { $0.action.rawValue == "reveal" })

        let closed = try InspectorFixture()
        let (locked, lockedAgent) = try self.session(kind, closed, InspectorFixture.configuration(reveal: false))
        defer { locked.close(); lockedAgent.stop() }
        #expect(locked.state.row(for: address)?.isRevealable == false)
        #expect(throws: JarvisError.self) { try locked.reveal(address) }
        #expect(locked.state.detail(address)?.note?.contains("does not allow revealing") == true)
    }

    @Test(arguments: Kind.allCases) func productionOffersNoEdit(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try session(kind, fixture, InspectorFixture.configuration(production: true))
        defer { session.close(); agent.stop() }
        let state = session.state
        #expect(!state.canEdit && state.banner == "READ-ONLY (production)")
        let rows = state.sections(scanner: nil).flatMap(\.rows)
        #expect(!rows.isEmpty && rows.allSatisfy { !$0.isEditable && !$0.isDeletable && $0.has(.readOnly) })
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        #expect(throws: JarvisError.self) { try session.draft(for: .key(address)) }
        #expect(throws: JarvisError.self) {
            try session.newDraft(scanner: "defaults", container: "com.example.app", key: "x", type: .string)
        }
        #expect(throws: JarvisError.self) {
            try session.delete(scanner: "defaults", container: "com.example.app", matching: "*")
        }
        #expect(try fixture.readSuite("com.example.app")["user_name"] as? String == "Ada")
    }

    @Test(arguments: Kind.allCases) func liveUpdatesMarkTheChangedRows(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        defer { agent.stop() }
        let session = InspectorSession(source: try kind.source(agent))
        defer { session.close() }
        let told = Locked(0)
        session.onChange { told.withLock { $0 += 1 } }
        session.startLive()
        try session.load()
        #expect(session.state.isLive)
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
        try other.set(address, to: "Grace")
        other.close()
        try eventually("the change to arrive") { session.state.row(for: address)?.preview == "Grace" }
        #expect(session.state.row(for: address)?.has(.changed) == true)
        #expect(told.current > 0)
        let later = ContinuousClock.now + InspectorState.highlight + .milliseconds(1)
        #expect(session.state.row(for: address, now: later)?.has(.changed) == false)
    }

    @Test func unreadableFilesAreShownWithTheAgentsMessage() throws {
        let fixture = try InspectorFixture()
        try Data("{ not json".utf8).write(to: fixture.files.appendingPathComponent("broken.json"))
        let (session, agent) = try session(.inProcess, fixture)
        defer { agent.stop() }
        let broken = try #require(session.state.rows(.containers(scanner: "files")).first { $0.title == "broken.json" })
        #expect(broken.problem?.isEmpty == false)
        #expect(
            session.state.sections(scanner: "files").contains { $0.container == "broken.json" && $0.problem != nil })
    }

    @MainActor @Test func aUIOnTheMainActorGetsResultsAsynchronously() async throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        defer { agent.stop() }
        let session = InspectorSession(source: InProcessSource(agent: agent))
        try await session.load()
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        let draft = try session.draft(for: .key(address))
        let outcome = try await session.save(draft, text: "Barbara")
        guard case .saved = outcome else {
            Issue.record("not saved: \(outcome)")
            return
        }
        #expect(try fixture.readSuite("com.example.app")["user_name"] as? String == "Barbara")
        let stale = try await session.save(draft, text: "Stale")
        guard case .conflict(let current) = stale else {
            Issue.record("a stale draft must conflict")
            return
        }
        #expect(current?.value == "Barbara")
        await session.close()
    }
}

/// Values a panel cannot show whole stay cheap: rows are shortened, nesting opens a level at a
/// time, and a huge container still lists.
@Suite struct InspectorLargeValueTests {
    @Test func aHugeBlobDeepNestingAndManyKeysStayBoundedInRows() throws {
        let fixture = try InspectorFixture()
        var deep: Any = "bottom"
        for _ in 0..<200 { deep = ["next": deep] }
        var many: [String: Any] = [:]
        for index in 0..<100_000 { many["key_\(index)"] = index }
        try fixture.writeSuite("com.example.big", ["blob": Data(count: 10 << 20), "deep": deep])
        try fixture.writeSuite("com.example.many", many)
        let agent = try fixture.agent()
        defer { agent.stop() }
        let session = InspectorSession(source: InProcessSource(agent: agent))
        try session.load()
        let state = session.state
        let blob = try #require(
            state.row(for: PreferenceAddress(scanner: "defaults", container: "com.example.big", key: "blob")))
        #expect(blob.preview == "<10485760 bytes>")
        let detail = try #require(
            state.detail(PreferenceAddress(scanner: "defaults", container: "com.example.big", key: "blob"), limit: 4096)
        )
        #expect((detail.valueText?.count ?? 0) < 4200)
        // Too large for a text editor: refused with a way out, before anything is sent.
        #expect(throws: JarvisError.self) { try session.draft(for: blob.target) }
        // 200 levels: each level opens its one member, down to the leaf.
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.big", key: "deep")
        #expect(state.row(for: address)!.preview.count <= 80)
        var pointer = JSONPointer(tokens: [])
        for _ in 0..<199 {
            let rows = state.rows(.value(address, pointer), previewLimit: 40)
            #expect(rows.count == 1 && rows[0].isOpenable && rows[0].preview.count <= 40)
            pointer = rows[0].target.pointer
        }
        let leaf = state.rows(.value(address, pointer))
        #expect(leaf.map(\.preview) == ["bottom"] && !leaf[0].isOpenable)
        // 100,000 keys list, each row short.
        let rows = state.rows(.keys(scanner: "defaults", container: "com.example.many"), previewLimit: 20)
        #expect(rows.count == 100_000 && rows.allSatisfy { $0.preview.count <= 20 })
    }
}
