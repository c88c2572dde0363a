import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The order every face's table sorts by: a key in natural order, a type, a value (numbers as
/// numbers, kinds apart), and each reversed by a second click.
@Suite struct InspectorSortTests {
    @Test func rowsSortByKeyTypeAndValueAndASecondClickReverses() throws {
        let fixture = try InspectorFixture()
        try fixture.writeSuite(
            "mixed",
            [
                "key10": 10, "key2": "banana", "key1": 9.5, "key3": true, "key20": "Apple", "key4": -3,
                "key5": Date(timeIntervalSince1970: 0), "key6": ["a": 1], "key7": "apple2", "key8": "apple10",
            ])
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        try session.load()
        defer { session.close(); agent.stop() }
        let state = session.state
        let rows = state.tableRows(scanner: "defaults", container: "mixed")
        func titles(_ sort: InspectorSort) -> [String] { state.sorted(rows, by: sort).map(\.title) }

        let byKey = ["key1", "key2", "key3", "key4", "key5", "key6", "key7", "key8", "key10", "key20"]
        #expect(titles(.natural) == byKey)
        #expect(titles(InspectorSort.natural.clicked(.key)) == byKey.reversed())
        // By type name, ties by key.
        #expect(
            titles(InspectorSort(column: .type))
                == ["key3", "key5", "key6", "key4", "key10", "key1", "key2", "key7", "key8", "key20"])
        // Booleans, numbers as numbers (-3 < 9.5 < 10), dates, then text in natural order
        // (apple2 before apple10, case folded), then dictionaries.
        let byValue = ["key3", "key4", "key1", "key10", "key5", "key20", "key7", "key8", "key2", "key6"]
        #expect(titles(InspectorSort(column: .value)) == byValue)
        #expect(titles(InspectorSort(column: .key).clicked(.value)) == byValue)
        #expect(titles(InspectorSort(column: .value).clicked(.value)) == byValue.reversed())
    }

    @Test func theCycleVisitsEveryColumnBothWaysAndComesBack() {
        var sort = InspectorSort.natural
        var seen: [String] = []
        for _ in 0..<6 {
            seen.append(sort.label)
            sort = sort.next
        }
        #expect(seen == ["key ↑", "key ↓", "type ↑", "type ↓", "value ↑", "value ↓"])
        #expect(sort == .natural)
    }
}
