import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// What the browser page used to decide itself, now decided once in the model for every
/// face: a changed row's old → new, an agent gone and back, a conflict's three values, where a
/// JSON text goes wrong, and a date typed as a clock in a time zone shows it.
@Suite struct FaceDecisionTests {
    let suite = ("defaults", "com.example.app")

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: suite.0, container: suite.1, key: key)
    }

    func changed(_ state: InspectorState, _ key: String, to value: PreferenceValue, revision: String)
        throws -> (ChangeNotification, PreferenceItem)
    {
        var item = try #require(state.items[address(key)])
        item.value = value
        item.revision = Revision(revision)
        let change = ChangeNotification(
            subscription: "w1", sequence: 1, time: nil,
            changes: [.init(kind: .updated, address: item.address, item: item, old: state.items[item.address])])
        return (change, item)
    }

    @Test func aChangedRowShowsWhatItHeldBeforeTheBurstUntilItsMarkEnds() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        var state = session.state
        let start = ContinuousClock.now
        #expect(state.row(for: address("user_name"), now: start)?.previous == nil)
        let (first, _) = try changed(state, "user_name", to: "Grace", revision: "a1")
        state.apply(first, now: start)
        let row = try #require(state.row(for: address("user_name"), now: start))
        #expect(row.has(.changed) && row.previous == "Ada" && row.preview == "Grace")
        // A second change within the mark keeps where the burst started.
        let (second, _) = try changed(state, "user_name", to: "Linus", revision: "a2")
        state.apply(second, now: start + .milliseconds(500))
        #expect(state.row(for: address("user_name"), now: start + .milliseconds(600))?.previous == "Ada")
        // The table's rows carry it too; once the mark ends it is gone.
        let table = state.tableRows(scanner: nil, container: nil, now: start + .milliseconds(600))
        #expect(table.first { $0.title == "user_name" }?.previous == "Ada")
        let later = start + .milliseconds(500) + InspectorState.highlight
        #expect(state.row(for: address("user_name"), now: later)?.previous == nil)
        // A new key shows that it is new.
        var fresh = try #require(state.items[address("user_name")])
        fresh.address = address("brand_new")
        fresh.revision = Revision("b1")
        state.apply(
            ChangeNotification(
                subscription: "w1", sequence: 3, time: nil,
                changes: [.init(kind: .added, address: fresh.address, item: fresh, old: nil)]), now: later)
        #expect(state.row(for: fresh.address, now: later)?.previous == "(new)")
    }

    @Test func anAgentGoneIsFollowedAndCaughtUpWith() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        var state = session.state
        state.isLive = true
        var follow = InspectorReconnection(selector: "phoenix", state: state)
        let start = ContinuousClock.now
        #expect(!follow.isGone(state) && follow.canEdit(state))
        let triedWhileLive = follow.shouldTry(state, now: start)
        #expect(!triedWhileLive)
        let before = state
        state.isLive = false
        state.liveProblem = "the agent closed the connection"
        #expect(follow.isGone(state) && !follow.canEdit(state))
        #expect(
            InspectorMessage.agentGone(state).text
                == "\(state.hello.agent) is gone (the agent closed the connection); showing what it last had, reconnecting by name"
        )
        // Looked for at most once per interval.
        let tries = [
            follow.shouldTry(state, now: start), follow.shouldTry(state, now: start + .milliseconds(500)),
            follow.shouldTry(state, now: start + InspectorReconnection.interval),
        ]
        #expect(tries == [true, false, true])
        // A session never live is not "gone": it never had a feed to lose.
        var never = state
        never.isLive = false
        #expect(!InspectorReconnection(selector: "x", state: never).isGone(never))
        // Back: what changed meanwhile is named and marked old → new.
        var back = before
        let (change, _) = try changed(back, "user_name", to: "Grace", revision: "c1")
        back.apply(change, now: start, marking: false)
        back.remove(address("volume"))
        #expect(back.changes(since: before) == [address("user_name"), address("volume")])
        let message = back.catchUp(from: before, now: start)
        #expect(message.text == "the agent is back; 2 keys changed while it was gone: user_name, volume")
        #expect(back.row(for: address("user_name"), now: start)?.previous == "Ada")
        #expect(before.changes(since: before).isEmpty)
        #expect(InspectorMessage.agentBack(changed: []).text == "the agent is back; nothing changed while it was gone")
        let many = (1...5).map { address("k\($0)") }
        #expect(
            InspectorMessage.agentBack(changed: many).text
                == "the agent is back; 5 keys changed while it was gone: k1, k2, k3 (and 2 more)")
    }

    @Test func aConflictNamesBaseTheirsAndYours() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        let draft = try session.draft(for: .key(address("user_name")))
        let (_, theirs) = try changed(state, "user_name", to: "Theirs", revision: "d1")
        let conflict = InspectorConflict(draft: draft, yours: "Mine", now: theirs)
        #expect(conflict.heading == "user_name changed while you edited it")
        #expect(conflict.base == "Ada" && conflict.theirs == "Theirs" && conflict.yours == "Mine")
        #expect(conflict.message == InspectorSession.SaveOutcome.conflict(theirs).message(draft))
        #expect(InspectorConflict(draft: draft, yours: "Mine", now: nil).theirs == "(the key was removed)")
        // A nested member's conflict shows the member, not the whole value.
        let files = PreferenceAddress(scanner: "files", container: "app.json", key: "server")
        let member = try session.draft(for: .member(files, JSONPointer(tokens: ["port"])))
        let whole = try #require(state.items[files])
        #expect(InspectorConflict(draft: member, yours: "9090", now: whole).theirs == "8080")
        #expect(InspectorConflict.keptTheirs(draft).text == "kept their value of user_name; your edit was not written")
        // A secret's replacement never shows either secret.
        let secret = try session.replacementDraft(
            for: PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token"))
        let hidden = InspectorConflict(draft: secret, yours: "s3cret", now: nil)
        #expect(!hidden.yours.contains("s3cret") && !hidden.base.isEmpty)
    }

    @Test func aJSONProblemSaysWhereTheTextGoesWrong() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        let draft = try session.draft(for: .key(address("profile")))
        #expect(draft.editor == .json)
        #expect(session.problem(draft, text: draft.text) == nil)
        let broken = "{\n  \"tags\": [\"swift\",\n  \"ios\"\n  \"oops\": 1\n}"
        let problem = try #require(session.problem(draft, text: broken))
        #expect(problem.line == 4 && problem.column == 3)
        #expect(problem.text.hasPrefix("line 4, column 3: "))
        // Not JSON's fault: no place, the model's message.
        let array = #"["a"]"#
        let wrongType = try #require(session.problem(draft, text: array))
        #expect(wrongType.line == nil && wrongType.message.contains("array"))
        // A number outside the catalog's range is refused with the range.
        let count = try session.draft(for: .key(address("launch_count")))
        #expect(count.range == 0...100)
        #expect(session.problem(count, text: "101")?.message == "the key catalog allows 0 to 100")
        #expect(session.problem(count, text: "42") == nil)
    }

    @Test func aDateIsTypedAsAClockInATimeZoneShowsIt() throws {
        let berlin = try DateEditing.zone("Europe/Berlin")
        let instant = try #require(DateEditing.date(from: "2024-01-15T09:00:05Z"))
        #expect(DateEditing.localText(instant, in: berlin) == "2024-01-15T10:00:05")
        #expect(DateEditing.localText(instant, in: try DateEditing.zone("UTC")) == "2024-01-15T09:00:05")
        #expect(DateEditing.date(local: "2024-01-15T10:00:05", in: berlin) == instant)
        #expect(DateEditing.date(local: "2024-01-15 10:00", in: berlin) == instant.addingTimeInterval(-5))
        #expect(try DateEditing.editText(local: "2024-07-01T12:30:45", zone: "Europe/Berlin") == "2024-07-01T10:30:45Z")
        // Untouched, the stored text is kept exactly (fractions and all).
        let precise = "2024-01-15T09:00:05.123456Z"
        let preciseDate = try #require(DateEditing.date(from: precise))
        let shown = try #require(DateEditing.localText(preciseDate, in: berlin))
        #expect(shown == "2024-01-15T10:00:05.123")
        #expect(try DateEditing.editText(local: shown, zone: "Europe/Berlin", previous: precise) == precise)
        #expect(try DateEditing.editText(local: "2024-01-15T10:00:06", zone: "Europe/Berlin", previous: precise) == "2024-01-15T09:00:06Z")
        // Nonsense is refused with what to type; an unknown zone says so.
        for bad in ["", "2024-02-30T10:00", "2024-01-15", "10:00", "2024-01-15T25:00", "２０２４-01-15T10:00"] {
            #expect(DateEditing.date(local: bad, in: berlin) == nil, "\(bad)")
        }
        let refusal = #expect(throws: JarvisError.self) { try DateEditing.editText(local: "soon", zone: "UTC") }
        #expect(refusal?.message.contains("choose a date and a time") == true)
        #expect(throws: JarvisError.self) { try DateEditing.editText(local: "2024-01-15T10:00", zone: "Mars/Olympus") }
        // A year such a field cannot hold has no local text (the face keeps ISO text).
        #expect(DateEditing.localText(Date(timeIntervalSince1970: 400_000_000_000), in: berlin) == nil)
    }
}
