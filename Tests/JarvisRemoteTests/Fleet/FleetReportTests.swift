import JarvisCore
import Testing

@testable import JarvisRemote

/// The result of a fan-out: one line per agent within 80 columns, JSON, and an exit status
/// that is 0 only when every agent did it.
@Suite struct FleetReportTests {
    let mixed = FleetReport([
        FleetOutcome(agent: "dev-a", pid: 11, identity: "jarvis-agent/dev-a", status: .changed, value: "8080 → 9090"),
        FleetOutcome(
            agent: "a-rather-long-agent-name-that-goes-on@iPhone 16 Pro Max", pid: 12, status: .conflict,
            reason: String(repeating: "the key changed since it was read; ", count: 5)),
        FleetOutcome(agent: "prod", pid: 13, status: .refused, reason: "a production agent: editing is off"),
        FleetOutcome(agent: "stuck", pid: 14, status: .noAnswer, reason: "no answer within 5 s"),
        FleetOutcome(agent: "ghost", status: .notRunning, reason: "no running agent matches 'ghost'"),
    ])

    @Test func theTableHasOneLinePerAgentWithinTheWidth() {
        let lines = mixed.table(escape: { $0 })
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines[0].hasPrefix("AGENT"))
        #expect(lines[1].contains("dev-a") && lines[1].contains("changed") && lines[1].contains("8080 → 9090"))
        #expect(lines[2].contains("conflict") && lines[2].hasSuffix("…"))
        #expect(lines[3].contains("refused") && lines[3].contains("production"))
        #expect(lines[5].contains("not running"))
        #expect(mixed.table(width: 50).allSatisfy { $0.count <= 50 })
    }

    @Test func aValueWithLineBreaksStaysOnItsLine() {
        let report = FleetReport([FleetOutcome(agent: "a", status: .ok, value: "one\ntwo\tthree")])
        #expect(report.table()[1].hasSuffix("one two three"))
    }

    @Test func theExitStatusIsZeroOnlyWhenEveryAgentDidIt() {
        #expect(mixed.exitStatus == 1)
        let done = FleetReport([
            FleetOutcome(agent: "a", status: .changed), FleetOutcome(agent: "b", status: .wouldChange),
            FleetOutcome(agent: "c", status: .ok),
        ])
        #expect(done.exitStatus == 0)
        #expect(FleetReport([]).exitStatus == 1)
        #expect(FleetReport([FleetOutcome(agent: "a", status: .ok), FleetOutcome(agent: "x", status: .notRunning)]).exitStatus == 1)
    }

    @Test func jsonHasOneEntryPerAgent() throws {
        let json = mixed.json
        #expect(json["ok"] == .bool(false))
        let agents = try #require(json["agents"]?.arrayValue)
        #expect(agents.count == 5)
        #expect(agents[0]["status"] == .string("changed") && agents[0]["ok"] == .bool(true))
        #expect(agents[0]["pid"]?.int64Value == 11 && agents[0]["identity"] == .string("jarvis-agent/dev-a"))
        #expect(agents[3]["status"] == .string("no answer") && agents[3]["ok"] == .bool(false))
        #expect(agents[4]["pid"] == nil)
    }

    @Test func theSummaryCountsWhatWentOtherwise() {
        #expect(mixed.summary == "1 of 4 agents did it; 1 conflict, 1 refused, 1 no answer, 1 not running")
    }

    @Test func anAgentErrorBecomesItsOutcome() {
        #expect(FleetOutcome.Result(JarvisError(.conflict, "changed")).status == .conflict)
        #expect(FleetOutcome.Result(JarvisError(.readOnly, "production")).status == .refused)
        #expect(FleetOutcome.Result(JarvisError(.notFound, "no key")).status == .notFound)
        #expect(FleetOutcome.Result(JarvisError(.storage, "disk")).status == .failed)
    }
}
