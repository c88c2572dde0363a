import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// Every decision a face makes comes from the model: where a row leads, what it shows and
/// offers, which editor and starting text fit, what an add offers, what a bulk delete
/// removes, and the words of every message.
@Suite struct InspectorDecisionTests {
    typealias Kind = InspectorSessionTests.Kind
    let suite = ("defaults", "com.example.app")

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: suite.0, container: suite.1, key: key)
    }

    @Test func whereARowLeads() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        let whole = JSONPointer(tokens: [])
        #expect(state.rows(.scanners).first?.destination == .level(.containers(scanner: "defaults")))
        let container = try #require(state.rows(.containers(scanner: "defaults")).first { $0.title == suite.1 })
        #expect(container.destination == .level(.keys(scanner: suite.0, container: suite.1)))
        // A key holding a dictionary opens its members, in every face (the panel opened a detail).
        #expect(state.row(for: address("profile"))?.destination == .level(.value(address("profile"), whole)))
        #expect(state.row(for: address("user_name"))?.destination == .detail(address("user_name"), whole))
        let tags = JSONPointer(tokens: ["tags"])
        let members = state.rows(.value(address("profile"), whole))
        #expect(members.first { $0.title == "tags" }?.destination == .level(.value(address("profile"), tags)))
        #expect(
            members.first { $0.title == "created" }?.destination
                == .detail(address("profile"), JSONPointer(tokens: ["created"])))
    }

    @Test func whatARowShowsAndOffers() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        let theme = try #require(state.row(for: address("theme")))
        #expect(theme.has(.unset) && theme.labels.isEmpty && !theme.isResettable && !theme.isDeletable)
        let count = try #require(state.row(for: address("launch_count")))
        #expect(count.isResettable && count.isDeletable && count.isEditable && count.labels.isEmpty)
        // Not catalogued: removing it is a delete, there is no default to reset to.
        let name = try #require(state.row(for: address("user_name")))
        #expect(!name.isResettable && name.isDeletable)
        #expect(InspectorMessage.cannotReset(name).text.contains("not in the key catalog"))
        let secret = try #require(
            state.row(for: PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")))
        #expect(secret.labels == ["secret"] && !secret.isEditable && secret.isReplaceable && secret.isRevealable)
        // Both faces use one limit for the detail's text.
        #expect(InspectorState.detailLimit == 256 * 1024)
    }

    @Test func everyTypeRoundTripsThroughItsEditorsText() throws {
        let values: [PreferenceValue] = [
            .string("héllo\nworld"), .integer(-42), .real(-0.5), .real(5.0), .boolean(true), .boolean(false),
            .date(Date(timeIntervalSince1970: 1_705_312_800)), .data(Data([0, 1, 254, 255])),
            .array([.integer(1), .string("a")]), .dictionary(["k": .boolean(true)]),
        ]
        let editors: [PreferenceType: ValueDraft.Editor] = [
            .string: .text, .integer: .integer, .real: .real, .boolean: .toggle, .date: .date, .data: .data,
            .array: .json, .dictionary: .json,
        ]
        for value in values {
            let draft = ValueDraft(
                address: address("x"), type: value.type, text: ValueFormat.editText(value), expectedRevision: nil)
            #expect(draft.editor == editors[value.type])
            #expect(try draft.value(from: draft.text) == value, "\(value)")
        }
        // A new key starts from text its editor can save as it is: a date starts now.
        let now = Date(timeIntervalSince1970: 1_800_000_000.75)
        for type in PreferenceType.allCases where type != .string && type != .data {
            let text = ValueDraft.initialText(for: type, now: now)
            #expect(throws: Never.self) { try ValueDraft.parse(text, as: type) }
        }
        #expect(
            try ValueDraft.parse(ValueDraft.initialText(for: .date, now: now), as: .date)
                == .date(Date(timeIntervalSince1970: 1_800_000_000)))
    }

    @Test(arguments: Kind.allCases) func aNewDateKeyStartsAtNowAndSaves(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let draft = try session.newDraft(scanner: suite.0, container: suite.1, key: "opened", type: .date)
        #expect(!draft.text.isEmpty && draft.editor == .date)
        guard case .saved = try session.save(draft, text: draft.text) else {
            Issue.record("a new date saves as it starts")
            return
        }
        #expect(try fixture.readSuite(suite.1)["opened"] is Date)
    }

    @Test func anAddOffersWritableContainersTheirTypesAndCataloguedKeysFirst() throws {
        let fixture = try InspectorFixture()
        try Data("{ not json".utf8).write(to: fixture.files.appendingPathComponent("broken.json"))
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        let choices = session.state.addChoices()
        #expect(!choices.contains { $0.container == "broken.json" })
        // The suite declares `theme` with nothing stored: it comes first, with its type.
        #expect(choices.first?.container == suite.1)
        #expect(choices.first?.suggestions.map(\.key) == ["theme"])
        #expect(choices.first?.suggestions.first?.type == .string)
        #expect(choices.first { $0.scanner == "secrets" }?.types == [.string, .data])
        let json = try #require(choices.first { $0.container == "app.json" })
        #expect(!json.types.contains(.date) && !json.types.contains(.data) && json.types.contains(.dictionary))
        #expect(throws: JarvisError.self) {
            try session.newDraft(scanner: "files", container: "app.json", key: "when", type: .date)
        }
        // A read-only agent offers no place at all.
        let closed = try InspectorFixture()
        let (locked, lockedAgent) = try InspectorSessionTests().session(
            .inProcess, closed, InspectorFixture.configuration(production: true))
        defer { locked.close(); lockedAgent.stop() }
        #expect(locked.state.addChoices().isEmpty)
    }

    @Test(arguments: Kind.allCases) func aBulkDeleteRemovesExactlyTheRowsShown(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite(
            suite.1, ["user_name": "Ada", "ADAPTER": "usb", "note": "ada lovelace", "other": "x", "launch_count": 3])
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        // The filter matches values and ignores case: what is shown is what goes.
        let shown = session.state.rows(.keys(scanner: suite.0, container: suite.1), filter: InspectorFilter("ada"))
        #expect(shown.map(\.title) == ["ADAPTER", "note", "user_name"])
        let deletion = session.state.deletion(of: shown)
        #expect(deletion.entries.map(\.address.key) == ["ADAPTER", "note", "user_name"])
        #expect(deletion.question == "Delete the 3 keys shown: ADAPTER, note, user_name?")
        // One of them changes after the preview: it is kept.
        let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
        try other.set(address("note"), to: "changed")
        other.close()
        let outcome = try session.delete(deletion)
        #expect(outcome.deleted.map(\.key) == ["ADAPTER", "user_name"] && outcome.changed.map(\.key) == ["note"])
        #expect(outcome.message.text.contains("kept 1 changed since the preview: note"))
        let stored = try fixture.readSuite(suite.1)
        #expect(stored["note"] as? String == "changed" && stored["other"] as? String == "x")
        #expect(stored["ADAPTER"] == nil && stored["user_name"] == nil)
        #expect(stored["launch_count"] as? NSNumber == 3)
    }

    /// Delete filtered is one change: one undo (the page's, the panel's) puts every key back.
    @Test(arguments: Kind.allCases) func oneUndoPutsBackEveryKeyABulkDeleteRemoved(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite(suite.1, ["tmp_a": "1", "tmp_b": "2", "tmp_c": "3", "keep": "x"])
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let shown = session.state.rows(.keys(scanner: suite.0, container: suite.1), filter: InspectorFilter("tmp"))
        let outcome = try session.delete(session.state.deletion(of: shown))
        #expect(outcome.deleted.count == 3)
        #expect(try fixture.readSuite(suite.1)["tmp_a"] == nil)
        let message = try session.undo()
        #expect(message.text.contains("3 keys as one change"), "\(message.text)")
        let stored = try fixture.readSuite(suite.1)
        #expect(stored["tmp_a"] as? String == "1" && stored["tmp_b"] as? String == "2" && stored["tmp_c"] as? String == "3")
        #expect(session.state.items[address("tmp_b")]?.value == "2", "the session read every key again")
    }

    @Test(arguments: Kind.allCases) func messagesAreTheModels(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let leaf = try session.draft(for: .member(address("profile"), JSONPointer(tokens: ["tags", "1"])))
        let saved = try session.save(leaf, text: "android")
        #expect(
            saved.message(leaf).text.hasPrefix("saved profile/tags/1 = \"android\"")
                || saved.message(leaf).text.hasPrefix("saved profile/tags/1 = android"))
        let draft = try session.draft(for: .key(address("user_name")))
        let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
        try other.set(address("user_name"), to: "Grace")
        other.close()
        let conflict = try session.save(draft, text: "Linus")
        #expect(conflict.message(draft).kind == .error)
        #expect(
            conflict.message(draft).text.contains("someone else changed user_name since you read it; it is now Grace"))
        // The draft survives: at the revision now, saving it again overwrites, as offered.
        let again = session.redraft(draft)
        guard case .saved = try session.save(again, text: "Linus") else {
            Issue.record("the redrafted text must save")
            return
        }
        #expect(try fixture.readSuite(suite.1)["user_name"] as? String == "Linus")
        #expect(
            InspectorMessage.reset(address("launch_count"), now: try session.reset(address("launch_count"))).text
                == "reset launch_count: unset (default: 0)")
    }

    @Test func highlightsEndWhenTheModelSays() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        var state = session.state
        let start = ContinuousClock.now
        #expect(state.nextHighlightEnd(now: start) == nil)
        var item = try #require(state.items[address("user_name")])
        item.value = "Grace"
        item.revision = Revision("f00d")
        let change = ChangeNotification(
            subscription: "w1", sequence: 1, time: nil,
            changes: [.init(kind: .updated, address: item.address, item: item, old: state.items[item.address])])
        #expect(state.apply(change, now: start) == 1)
        #expect(state.nextHighlightEnd(now: start) == start + InspectorState.highlight)
        #expect(state.row(for: item.address, now: start)?.has(.changed) == true)
        let after = start + InspectorState.highlight
        #expect(state.row(for: item.address, now: after)?.has(.changed) == false)
        #expect(state.nextHighlightEnd(now: after) == nil)
        state.expireHighlights(now: after)
        #expect(state.changedAt.isEmpty)
    }
}
