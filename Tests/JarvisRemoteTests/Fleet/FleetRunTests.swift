import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisRemote

/// The runner reaches every agent at once and waits for none longer than its bound.
@Suite struct FleetRunTests {
    @Test func aSilentAgentIsReportedAndHoldsUpNobodyPastTheBound() throws {
        let first = try AgentFixture(tcp: false)
        let second = try AgentFixture(tcp: false)
        let folder = try TemporaryFolder()
        let silent = try SilentListener(path: folder.socketPath("silent.sock"))
        defer { silent.stop() }
        let records = [
            first.agent.record, AgentRecord(pid: 1, name: "silent", socket: silent.path, started: "", platform: ""),
            second.agent.record,
        ]
        let started = ContinuousClock.now
        let report = FleetRun.run(AgentSelection.Resolved(agents: records, unmatched: []), bound: .seconds(1)) {
            _, client throws(JarvisError) in
            FleetOutcome.Result(.ok, value: try client.get(Wire.Place(container: "app", key: "name")).value.map { "\($0)" })
        }
        let took = ContinuousClock.now - started
        #expect(report.outcomes.map(\.status) == [.ok, .noAnswer, .ok])
        #expect(report.exitStatus == 1)
        // The bound, plus what starting threads and closing sockets cost on a loaded machine.
        #expect(took < .seconds(4), "\(took)")
    }

    @Test func anAgentThatIsGoneIsAFailureOfItsOwn() throws {
        let live = try AgentFixture(tcp: false)
        let gone = AgentRecord(pid: 1, name: "gone", socket: "/nonexistent/gone.sock", started: "", platform: "")
        let report = FleetRun.run(AgentSelection.Resolved(agents: [gone, live.agent.record], unmatched: ["ghost"])) {
            _, client throws(JarvisError) in
            try client.ping()
            return FleetOutcome.Result(.ok)
        }
        #expect(report.outcomes.map(\.status) == [.failed, .ok, .notRunning])
    }
}
