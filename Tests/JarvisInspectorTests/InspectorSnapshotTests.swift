import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// A reveal to look is not consent to share: a snapshot leaves every secret out unless the
/// export itself asks for them, which the agent must allow and records in its audit log.
@Suite struct InspectorSnapshotTests {
    typealias Kind = InspectorSessionTests.Kind

    @Test(arguments: Kind.allCases) func aSnapshotAfterARevealLeavesTheSecretOut(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")
        try session.reveal(address)
        #expect(session.state.row(for: address)?.preview == "hunter2")
        let plain = session.snapshot()
        #expect(!plain.text.contains("hunter2") && plain.leftOut == 1)
        #expect(plain.text.contains("Ada"))
        // The export that asks: the agent's consent, and one audit record for what it sent.
        let reveals = { agent.auditLog.records().filter { $0.action == .reveal && $0.address == address }.count }
        let before = reveals()
        let allReveals = agent.auditLog.records().filter { $0.action == .reveal }.count
        #expect(agent.auditLog.records().filter { $0.action == .export }.isEmpty)
        let full = try session.snapshotIncludingSecrets()
        #expect(full.text.contains("hunter2") && full.leftOut == 0)
        #expect(reveals() == before + 1)
        // And one record for the export itself: who, when, and how many secrets it sent.
        let exports = agent.auditLog.records().filter { $0.action == .export }
        #expect(exports.count == 1)
        let sent = agent.auditLog.records().filter { $0.action == .reveal }.count - allReveals
        #expect(exports.first?.count == sent && sent >= 1)
        #expect(exports.first?.address == PreferenceAddress(scanner: "*", container: "*", key: "*"))
        #expect(exports.first?.client.name == "JarvisUI" || exports.first?.client.name == "jarvis-inspector")
        // Where the agent allows no reveal, the export cannot include secrets.
        let closed = try InspectorFixture()
        let (locked, lockedAgent) = try InspectorSessionTests().session(
            kind, closed, InspectorFixture.configuration(reveal: false))
        defer { locked.close(); lockedAgent.stop() }
        #expect(throws: JarvisError.self) { try locked.snapshotIncludingSecrets() }
        #expect(!locked.snapshot().text.contains("hunter2"))
    }
}
