import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The decisions the SwiftUI panel draws, made by the model and checked here on Linux: when to
/// redraw, how numbers and dates are typed, what a choice shows, what a row copies, what a
/// shared snapshot holds, how long a message stays.
@Suite struct PanelDecisionsTests {
    @Test func aBurstOfChangesRefreshesAtMostOncePer100Milliseconds() {
        var throttle = RefreshThrottle()
        let start = ContinuousClock.now
        // The first change refreshes at once.
        #expect(throttle.changed(now: start) == start)
        // 1,000 changes before that refresh ran ask for nothing more.
        for step in 1...1000 { #expect(throttle.changed(now: start + .microseconds(step * 10)) == nil) }
        throttle.refreshed(now: start + .milliseconds(1))
        // The next change waits until 100 ms after the last refresh.
        #expect(throttle.changed(now: start + .milliseconds(20)) == start + .milliseconds(101))
        #expect(throttle.changed(now: start + .milliseconds(50)) == nil)
        throttle.refreshed(now: start + .milliseconds(101))
        // A change long after the last refresh is shown at once.
        #expect(throttle.changed(now: start + .seconds(5)) == start + .seconds(5))
    }

    @Test func numbersAreTypedWithTheLocalesSeparatorAndAnyMinusSign() throws {
        let german = Locale(identifier: "de_DE")
        let english = Locale(identifier: "en_US")
        let address = PreferenceAddress(scanner: "defaults", container: "app", key: "volume")
        let real = ValueDraft(address: address, type: .real, text: "-2.5", expectedRevision: nil)
        #expect(real.startText(locale: german) == "-2,5")
        #expect(real.startText(locale: english) == "-2.5")
        #expect(try real.value(from: real.plainText("\u{2212}2,5", locale: german)) == .real(-2.5))
        #expect(try real.value(from: real.plainText("-2.5", locale: german)) == .real(-2.5))
        #expect(try real.value(from: real.plainText(" 1,5e\u{2212}3 ", locale: german)) == .real(0.0015))
        // Grouping is refused rather than guessed, and a comma means nothing in English.
        #expect(throws: JarvisError.self) { try real.value(from: real.plainText("1.000,5", locale: german)) }
        #expect(throws: JarvisError.self) { try real.value(from: real.plainText("2,5", locale: english)) }
        let integer = ValueDraft(address: address, type: .integer, text: "3", expectedRevision: nil)
        #expect(try integer.value(from: integer.plainText("\u{2013}7", locale: english)) == .integer(-7))
        // Text that is not a number is left alone.
        let text = ValueDraft(address: address, type: .string, text: "2.5", expectedRevision: nil)
        #expect(text.startText(locale: german) == "2.5" && text.plainText("\u{2212}2,5", locale: german) == "\u{2212}2,5")
    }

    @Test func aChoiceShowsAStoredValueTheCatalogDoesNotList() throws {
        let address = PreferenceAddress(scanner: "defaults", container: "app", key: "theme")
        let choices: [PreferenceValue] = [.string("light"), .string("dark")]
        let stored = ValueDraft(
            address: address, type: .string, text: "sepia", choices: choices, expectedRevision: .absent)
        #expect(stored.editor == .choice)
        #expect(stored.choiceOptions.map(\.text) == ["sepia", "light", "dark"])
        #expect(stored.choiceOptions.map(\.isAllowed) == [false, true, true])
        #expect(stored.choiceOptions[0].label.contains("not in the catalog"))
        #expect(stored.startText(locale: .current) == "sepia")
        #expect(throws: JarvisError.self) { try stored.value(from: "sepia") }
        let listed = ValueDraft(address: address, type: .string, text: "dark", choices: choices, expectedRevision: nil)
        #expect(listed.choiceOptions.map(\.text) == ["light", "dark"])
        // A new key starts on the catalog's first value, never on a blank it cannot save.
        let new = ValueDraft(
            address: address, type: .string, text: "", choices: choices, expectedRevision: .absent, isNew: true)
        #expect(new.choiceOptions.map(\.text) == ["light", "dark"] && new.startText(locale: .current) == "light")
    }

    @Test func theDateEditorKeepsSecondsAndReadsInAChosenTimeZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let date = try #require(DateEditing.date(from: "2024-01-15T10:20:37.25Z"))
        #expect(DateEditing.second(of: date, in: berlin) == 37)
        let set = DateEditing.setting(second: 5, of: date, in: berlin)
        #expect(DateEditing.text(set) == "2024-01-15T10:20:05Z")
        #expect(DateEditing.text(DateEditing.setting(second: 99, of: date, in: utc)) == "2024-01-15T10:20:59Z")
        // A minute picker moving the hour keeps the seconds and the fraction.
        let picked = try #require(DateEditing.date(from: "2024-01-15T13:45:00Z"))
        #expect(DateEditing.text(DateEditing.merge(picked: picked, keepingSecondsOf: date, in: berlin))
                == "2024-01-15T13:45:37.250Z")
        #expect(DateEditing.label(berlin, at: date) == "Europe/Berlin (UTC+01:00)")
        #expect(DateEditing.label(utc, at: date).hasSuffix(" (UTC+00:00)"))
        let zones = DateEditing.zones(current: berlin)
        #expect(Array(zones.prefix(2)) == ["Europe/Berlin", "UTC"] && Set(zones).count == zones.count)
        #expect(zones.contains("America/New_York"))
        // An empty date starts on a real minute, which the draft accepts.
        let now = try #require(DateEditing.date(from: "2026-11-27T01:02:03.5Z"))
        let start = DateEditing.start("", now: now)
        #expect(DateEditing.text(start) == "2026-11-27T01:02:00Z")
        let draft = ValueDraft(
            address: PreferenceAddress(scanner: "d", container: "c", key: "k"), type: .date, text: "",
            expectedRevision: .absent, isNew: true)
        #expect(try draft.value(from: DateEditing.text(start)) == .date(start))
        // The editor of a new date starts on a date it can save untouched.
        #expect((try? draft.value(from: draft.startText(locale: .current)))?.type == .date)
    }

    @Test func everyRowCopiesItsKeyValueAndPointer() throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        defer { session.close(); agent.stop() }
        try session.load()
        let state = session.state
        let profile = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "profile")
        let key = try #require(state.copyTexts(for: .key(profile)))
        #expect(key.text(.key) == "profile" && key.text(.pointer) == "/profile")
        #expect(key.text(.value)?.contains("\"tags\"") == true)
        let member = try #require(state.copyTexts(for: .member(profile, JSONPointer(tokens: ["tags", "1"]))))
        #expect(member.text(.value) == "ios" && member.text(.pointer) == "/profile/tags/1")
        // A masked secret copies its name and place, never the mask.
        let token = PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")
        let masked = try #require(state.copyTexts(for: .key(token)))
        #expect(masked.text(.value) == nil && masked.text(.pointer) == "/api_token")
        // What a menu offers agrees with what copying gives, on every row of the suite.
        for row in state.rows(.keys(scanner: "defaults", container: "com.example.app"))
            + state.rows(.keys(scanner: "secrets", container: "vault"))
        {
            #expect(row.hasCopyableValue == (state.copyTexts(for: row.target)?.text(.value) != nil), "\(row.title)")
        }
        #expect(InspectorMessage.copied(.pointer, of: "theme").text == "Copied the pointer of theme")
    }

    @Test func aSharedSnapshotIsAJSONFileThatSaysHowManySecretsItLeftOut() throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        defer { session.close(); agent.stop() }
        try session.load()
        let now = try #require(DateEditing.date(from: "2026-11-27T01:02:03Z"))
        let share = session.snapshotShare(now: now)
        #expect(share.fileName == "jarvis-inspector-test-20261127-010203.json")
        #expect(share.leftOut == 1)
        #expect(share.summary.hasSuffix("1 secret left out (a reveal to look is not consent to share)"))
        let folder = fixture.root.appendingPathComponent("share")
        let url = try share.write(into: folder)
        #expect(url.lastPathComponent == share.fileName)
        let snapshot = try JarvisSnapshot(parsing: Array(try Data(contentsOf: url)))
        #expect(snapshot.items.count == share.count && share.count > 3)
        #expect(!snapshot.items.contains { $0.address.key == "api_token" })
        #expect(share.summary.hasPrefix("\(share.count) keys;"))
        // Revealed, the secret is still left out: a reveal to look is not consent to share.
        try session.reveal(PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token"))
        let revealed = session.snapshotShare(scanner: "secrets", now: now)
        #expect(revealed.leftOut == 1, "\(revealed.summary)")
        #expect(revealed.count == 0, "\(revealed.summary)")
        #expect(SnapshotShare.fileName(agent: "My App/β:1", date: now) == "jarvis-My-App-β-1-20261127-010203.json")
        #expect(SnapshotShare.fileName(agent: "///", date: now) == "jarvis-agent-20261127-010203.json")
        // A folder that cannot be made is reported.
        let blocked = fixture.root.appendingPathComponent("file")
        try Data().write(to: blocked)
        #expect(throws: JarvisError.self) { try share.write(into: blocked.appendingPathComponent("sub")) }
    }

    @Test func messagesGoAwayAfterTheirReadingTime() {
        #expect(PanelMessage(InspectorMessage("Saved")).lifetime == .seconds(4))
        let refused = PanelMessage(InspectorMessage("Not saved", .error))
        #expect(refused.lifetime == .seconds(6) && refused.isProblem)
        #expect(PanelMessage(InspectorMessage("Note", .warning)).lifetime == .seconds(6))
        let long = PanelMessage(InspectorMessage(String(repeating: "word ", count: 20)))
        #expect(long.lifetime > .seconds(4) && long.lifetime <= .seconds(10) && !long.isProblem)
        #expect(PanelMessage(InspectorMessage(String(repeating: "x", count: 10_000))).lifetime == .seconds(10))
    }
}
