import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The model's rows show hidden characters of keys, containers and values as escapes (so
/// every face draws them visibly), while targets and what is copied keep the real text.
@Suite struct InspectorVisibleTextTests {
    @Test func rowsShowEscapesAndKeepTheRealKeyInTargetsAndCopies() throws {
        let fixture = try InspectorFixture()
        let key = "invoice\u{202E}gnp.exe"
        try fixture.writeSuite("odd\u{2066}suite", [key: "a\u{200B}b", "nested": ["in\u{200F}ner": "x\u{2028}y"]])
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        try session.load()
        defer { session.close(); agent.stop() }
        let state = session.state
        let rows = state.tableRows(scanner: "defaults", container: "odd\u{2066}suite")
        let row = try #require(rows.first { $0.target.address?.key == key })
        #expect(row.title == #"invoice\u{202E}gnp.exe"#)
        #expect(row.subtitle == #"odd\u{2066}suite"#)
        #expect(row.preview == #"a\u{200B}b"#)
        #expect(state.copyTexts(for: row.target)?.key == key)
        let nested = try #require(rows.first { $0.target.address?.key == "nested" })
        let members = state.rows(.value(try #require(nested.target.address), JSONPointer(tokens: [])))
        #expect(members.map(\.title) == [#"in\u{200F}ner"#])
        #expect(members.map(\.preview) == [#"x\u{2028}y"#])
        let containers = state.rows(.containers(scanner: "defaults")).map(\.title)
        #expect(containers.contains(#"odd\u{2066}suite"#), "\(containers)")
    }

    /// A filter finds a key by its real text (a bidi override or a zero-width space pasted
    /// into the search field) as well as by the escape a row shows, in every face's model:
    /// the table, the levels, and the folded rows a face filters on every keystroke.
    @Test func aFilterFindsHiddenCharactersTypedRawOrAsTheirEscape() throws {
        let fixture = try InspectorFixture()
        let key = "invoice\u{202E}gnp.exe"
        try fixture.writeSuite("files", [key: "a\u{200B}b", "plain": "ab", "other": "c"])
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        try session.load()
        defer { session.close(); agent.stop() }
        let state = session.state
        func keys(_ text: String) -> [String] {
            state.tableRows(scanner: "defaults", container: "files", filter: InspectorFilter(text))
                .compactMap { $0.target.address?.key }.sorted()
        }
        #expect(keys("\u{202E}") == [key])
        #expect(keys("e\u{202E}G") == [key])
        #expect(keys(#"\u{202e}"#) == [key])
        #expect(keys("a\u{200B}b") == [key])
        #expect(keys(#"a\u{200B}b"#) == [key])
        #expect(keys("ab") == ["plain"])
        #expect(keys("*\u{202E}*") == [key])
        let rows = state.rows(.keys(scanner: "defaults", container: "files"))
        let raw = InspectorFilter("\u{202E}gnp")
        #expect(rows.filter(raw.matches).compactMap { $0.target.address?.key } == [key])
        var index = InspectorFilterIndex(rows: rows)
        #expect(index.kept(by: raw).map { $0.map { rows[$0].target.address?.key } } == [key])
        #expect(raw.matches(key) && raw.matches(#"invoice\u{202E}gnp.exe"#))
    }
}
