import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The model names the keys whose rows may read differently since a position, so a face
/// holding every row patches those alone: a stored value, a mark set and ended, a key added or
/// removed (as moved); anything that may change every row starts a new epoch.
@Suite struct InspectorRowLogTests {
    let faces = FaceDecisionTests()

    @Test func changesNameTheirKeysAndALoadOrAnAgentGoneNamesEveryRow() throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(.inProcess, fixture)
        defer { session.close(); agent.stop() }
        var state = session.state
        let start = state.rowLog.position
        #expect(state.rowLog.notes(since: start)?.isEmpty == true)

        let now = ContinuousClock.now
        let (change, _) = try faces.changed(state, "user_name", to: "Grace", revision: "r9")
        state.apply(change, now: now)
        let notes = try #require(state.rowLog.notes(since: start))
        #expect(Set(notes.map(\.address)) == [faces.address("user_name")])
        #expect(notes.allSatisfy { !$0.moved })

        // The mark's end changes the row again.
        let marked = state.rowLog.position
        state.expireHighlights(now: now + InspectorState.highlight)
        #expect(state.rowLog.notes(since: marked)?.map(\.address) == [faces.address("user_name")])

        // A key that goes is a row that goes.
        let before = state.rowLog.position
        state.remove(faces.address("user_name"))
        #expect(state.rowLog.notes(since: before)?.map(\.moved) == [true])

        // Every row may differ: a position of an older epoch asks for them all.
        state.isGone = true
        #expect(state.rowLog.notes(since: before) == nil)
        #expect(state.rowLog.notes(since: state.rowLog.position)?.isEmpty == true)
    }

    @Test func aFaceFurtherBehindThanTheLogKeepsBuildsEveryRow() {
        var log = InspectorRowLog()
        let start = log.position
        let address = PreferenceAddress(scanner: "s", container: "c", key: "k")
        for _ in 0..<(InspectorRowLog.capacity + 1) { log.note(address) }
        #expect(log.notes(since: start) == nil)
        #expect(log.notes(since: InspectorRowLog.Position(epoch: 0, count: log.position.count - 10))?.count == 10)
    }
}
