import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// Undo and redo through the inspector model (what `z` and `Z` do in `jarvis inspect`), in
/// process and over the socket: the agent's journal decides, the session reads the key again.
@Suite struct InspectorUndoTests {
    typealias Kind = InspectorSessionTests.Kind
    static let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")

    /// A fixture (its folder lives as long as it does), its agent and a session on it, loaded.
    static func loaded(_ kind: Kind) throws -> (InspectorFixture, JarvisAgent, InspectorSession) {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        let session = InspectorSession(source: try kind.source(agent))
        try session.load()
        return (fixture, agent, session)
    }

    @Test(arguments: Kind.allCases) func undoStepsBackAndRedoPutsBack(_ kind: Kind) throws {
        let (fixture, agent, session) = try Self.loaded(kind)
        defer { session.close(); agent.stop(); withExtendedLifetime(fixture) {} }
        let address = Self.address
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

    @Test(arguments: Kind.allCases) func aKeysTimelineListsItsChangesNewestFirstAndRevertTakesOneBack(_ kind: Kind) throws {
        let (fixture, agent, session) = try Self.loaded(kind)
        defer { session.close(); agent.stop(); withExtendedLifetime(fixture) {} }
        let address = Self.address
        let other = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "launch_count")
        for (target, text) in [(address, "Grace"), (other, "9"), (address, "Hopper")] {
            guard case .saved = try session.save(try session.draft(for: .key(target)), text: text) else {
                Issue.record("the save must go through")
                return
            }
        }
        let timeline = try session.timeline(of: address)
        #expect(timeline.map(\.after) == [#""Hopper""#, #""Grace""#], "only this key's entries, newest first")
        #expect(timeline.allSatisfy { $0.canRevert && $0.state == nil && $0.who.contains("(") })
        // The older change cannot go back while the newer one stands: a conflict, nothing written.
        #expect(throws: JarvisError.self) { try session.revert(timeline[1]) }
        #expect(session.state.items[address]?.value == "Hopper")
        let message = try session.revert(timeline[0])
        #expect(message.text.hasPrefix("undid #\(timeline[0].id)"), "\(message.text)")
        #expect(session.state.items[address]?.value == "Grace")
        let after = try session.timeline(of: address)
        #expect(after.first?.what == "undo of #\(timeline[0].id)" && after.first?.revertLabel == "Redo")
        #expect(after[1].canRevert == false && after[1].state == "undone by #\(after[0].id)")
        // A key whose name is a glob is matched exactly.
        #expect(try session.timeline(of: PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "*")).isEmpty)
    }
}
