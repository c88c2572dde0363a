import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The flat key table the browser inspector draws: natural order, chips, and what is offered
/// to copy, on real scanners through a real agent.
@Suite struct InspectorTableTests {
    func loaded(_ fixture: InspectorFixture) throws -> (InspectorSession, JarvisAgent) {
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        try session.load()
        return (session, agent)
    }

    @Test func theTableNarrowsByScopeFilterAndChips() throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite("numbers", ["key_10": 10, "key_2": 2, "key_1": 1, "name": "x"])
        let (session, agent) = try loaded(fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        #expect(state.tableRows(scanner: "defaults", container: "numbers").map(\.title) == ["key_1", "key_2", "key_10", "name"])
        #expect(
            state.tableRows(scanner: "defaults", container: "numbers", chips: [.type(.integer)]).map(\.title)
                == ["key_1", "key_2", "key_10"])
        #expect(state.tableRows(scanner: nil, container: nil, chips: [.secrets]).map(\.title) == ["api_token"])
        #expect(state.tableRows(scanner: nil, container: nil, chips: [.unset]).map(\.title) == ["theme"])
        // Declared by the catalog: theme and launch_count; everything else stored is undeclared.
        let undeclared = state.tableRows(scanner: "defaults", container: "com.example.app", chips: [.undeclared])
        #expect(undeclared.map(\.title) == ["profile", "user_name", "volume"])
        #expect(
            state.tableRows(scanner: nil, container: nil, filter: InspectorFilter("key_?"), chips: [.type(.integer)])
                .map(\.title) == ["key_1", "key_2"])
        #expect(InspectorChip(id: "type:integer") == .type(.integer))
        #expect(InspectorChip(id: "nonsense") == nil)
    }

    @Test func filteredRowsShowWhatTheTableShowsForEveryFilterTyped() throws {
        let fixture = try InspectorFixture()
        var values: [String: Any] = [:]
        for number in 0..<300 { values["key_\(number)"] = number % 3 == 0 ? "Value \(number)" : number }
        try fixture.writeSuite("numbers", values)
        let (session, agent) = try loaded(fixture)
        defer { session.close(); agent.stop() }
        var table = InspectorFilteredRows()
        table.replace(with: InspectorRowChunks(session.state.tableRows(scanner: "defaults", container: "numbers")))
        let typed = ["k", "ke", "key_1", "key_12", "key_1", "key_", "", "VAL", "value 2", "*9", "key_?", "key_??", "x", ""]
        for text in typed {
            let filter = InspectorFilter(text)
            let expected = session.state.tableRows(scanner: "defaults", container: "numbers", filter: filter)
            #expect(table.rows(filter).map(\.title) == expected.map(\.title), "after typing '\(text)'")
        }
        // New rows replace the old ones: the same filter now answers over them.
        values["key_1"] = "value one"
        try fixture.writeSuite("numbers", values)
        try session.load()
        table.replace(with: InspectorRowChunks(session.state.tableRows(scanner: "defaults", container: "numbers")))
        #expect(table.rows(InspectorFilter("value o")).map(\.title) == ["key_1"])
    }

    @Test func copyTextsGiveTheKeyTheValueThePointerAndASetCommand() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try loaded(fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        let port = PreferenceAddress(scanner: "files", container: "app.json", key: "server")
        let copy = try #require(state.copyTexts(for: .member(port, JSONPointer(tokens: ["port"]))))
        #expect(copy.key == "server")
        #expect(copy.value == "8080")
        #expect(copy.pointer == "/server/port")
        #expect(copy.command == "jarvis set files:app.json /server/port 8080 --int")
        let name = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        #expect(
            state.copyTexts(for: .key(name), agent: "my app")?.command
                == "jarvis set --agent 'my app' defaults:com.example.app user_name Ada --string")
        let secret = try #require(state.items.keys.first { $0.scanner == "secrets" })
        let masked = try #require(state.copyTexts(for: .key(secret)))
        #expect(masked.value == nil && masked.command == nil)
        #expect(InspectorState.shellQuoted("it's") == #"'it'\''s'"#)
    }

    /// The table's order is kept as keys come and go (no table sorts all keys again): after
    /// added, changed and removed keys it is still every key, in natural order.
    @Test func theOrderIsKeptAsKeysComeAndGo() throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite("numbers", ["key_10": 10, "key_2": 2, "key_1": 1, "name": "x"])
        let (session, agent) = try loaded(fixture)
        defer { session.close(); agent.stop() }
        var state = session.state
        func sorted() -> [PreferenceAddress] { state.items.keys.sorted(by: InspectorState.tableOrder) }
        #expect(state.orderedAddresses == sorted())
        let template = try #require(state.items[PreferenceAddress(scanner: "defaults", container: "numbers", key: "key_2")])
        var changes: [ChangeNotification.Change] = []
        for key in ["key_3", "key_0", "key_20", "a", "zz", "key_2"] {
            var item = template
            item.address = PreferenceAddress(scanner: "defaults", container: "numbers", key: key)
            item.revision = Revision("r-\(key)")
            changes.append(.init(kind: key == "key_2" ? .updated : .added, address: item.address, item: item, old: nil))
        }
        let gone = PreferenceAddress(scanner: "defaults", container: "numbers", key: "key_10")
        changes.append(.init(kind: .removed, address: gone, item: nil, old: state.items[gone]))
        state.apply(ChangeNotification(subscription: "w1", sequence: 1, time: nil, changes: changes), now: .now)
        #expect(state.orderedAddresses == sorted())
        #expect(state.orderedAddresses.count == state.items.count)
        #expect(
            state.tableRows(scanner: "defaults", container: "numbers").map(\.title)
                == ["a", "key_0", "key_1", "key_2", "key_3", "key_20", "name", "zz"])
        state.remove(PreferenceAddress(scanner: "defaults", container: "numbers", key: "a"))
        #expect(state.orderedAddresses == sorted())
    }

    /// `changedSince` holds the keys changed after the serial a face kept, whether or not
    /// their mark has ended; `changed` only those marked a moment ago.
    @Test func changedSinceKeepsWhatChangedAfterItsMarkEnds() throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite("since", ["a": 1, "b": 2])
        let (session, agent) = try loaded(fixture)
        defer { session.close(); agent.stop() }
        var state = session.state
        let opened = state.changeSerial
        let address = PreferenceAddress(scanner: "defaults", container: "since", key: "a")
        var item = try #require(state.items[address])
        item.value = 5
        item.revision = Revision("r-a")
        let start = ContinuousClock.now
        state.apply(
            ChangeNotification(
                subscription: "w1", sequence: 1, time: nil,
                changes: [.init(kind: .updated, address: address, item: item, old: state.items[address])]),
            now: start)
        let later = start + InspectorState.highlight + .seconds(1)
        state.expireHighlights(now: later)
        func keys(_ chip: InspectorChip) -> [String] {
            state.tableRows(scanner: "defaults", container: "since", chips: [chip], now: later).map(\.title)
        }
        #expect(keys(.changedSince(opened)) == ["a"])
        #expect(keys(.changedSince(state.changeSerial)).isEmpty)
        #expect(keys(.changed).isEmpty)
        #expect(InspectorChip.changedSince(opened).id == "changed")
    }

    /// A dictionary's members are listed in the table's natural order (`key_2` before
    /// `key_10`), the same in every face's tree; an array's elements keep their places.
    @Test func aDictionarysMembersAreInNaturalOrder() throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite(
            "nested",
            ["map": ["key_10": 10, "key_2": 2, "Key_1": 1, "b": 0, "key_2a": 3], "list": ["x10", "x2", "x1"]])
        let (session, agent) = try loaded(fixture)
        defer { session.close(); agent.stop() }
        let state = session.state
        let whole = JSONPointer(tokens: [])
        let map = PreferenceAddress(scanner: "defaults", container: "nested", key: "map")
        #expect(state.rows(.value(map, whole)).map(\.title) == ["b", "Key_1", "key_2", "key_2a", "key_10"])
        let list = PreferenceAddress(scanner: "defaults", container: "nested", key: "list")
        #expect(state.rows(.value(list, whole)).map(\.preview) == ["x10", "x2", "x1"])
    }
}
