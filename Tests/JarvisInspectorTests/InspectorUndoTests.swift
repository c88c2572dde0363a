import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// Undo and redo through the inspector model (what `z` and `Z` do in `jarvis inspect`), in
/// process and over the socket: the agent's journal decides, the session reads the key again.
@Suite struct InspectorUndoTests {
    typealias Kind = InspectorSessionTests.Kind

    @Test(arguments: Kind.allCases) func undoStepsBackAndRedoPutsBack(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        let session = InspectorSession(source: try kind.source(agent))
        defer { session.close(); agent.stop() }
        try session.load()
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        let before = session.state.items[address]?.value
        let draft = try session.draft(for: .key(address))
        guard case .saved = try session.save(draft, text: "Grace") else {
            Issue.record("the save must go through")
            return
        }
        let undone = try session.undo()
        #expect(undone.text.hasPrefix("undid #") && undone.text.contains("user_name"), "\(undone.text)")
        #expect(session.state.items[address]?.value == before, "the session read the key again")
        let redone = try session.undo(redo: true)
        #expect(redone.text.hasPrefix("redid #"), "\(redone.text)")
        #expect(session.state.items[address]?.value == "Grace")
    }

    @Test func aReadOnlyAgentRefusesUndo() throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent(InspectorFixture.configuration(production: true))
        let session = InspectorSession(source: InProcessSource(agent: agent))
        defer { session.close(); agent.stop() }
        try session.load()
        #expect(throws: JarvisError.self) { try session.undo() }
    }
}
