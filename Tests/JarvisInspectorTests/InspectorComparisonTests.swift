import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The decisions of comparing across agents (the browser's comparisons): which lines differ,
/// what a difference applies, and what a snapshot file may be.
@Suite struct InspectorComparisonTests {
    static func record(_ pid: Int32, _ name: String) -> AgentRecord {
        AgentRecord(pid: pid, name: name, socket: "/run/\(pid).sock", started: "", platform: "Linux")
    }

    static func item(_ key: String, _ value: PreferenceValue, masked: Bool = false) -> PreferenceItem {
        PreferenceItem(
            address: PreferenceAddress(scanner: "files", container: "app.json", key: key), type: value.type,
            value: masked ? nil : value, revision: Revision(of: value),
            mask: masked ? PreferenceItem.Mask(length: 3, fingerprint: "ab") : nil)
    }

    static let address = PreferenceAddress(scanner: "files", container: "app.json", key: "port")

    @Test func theAgentInViewComesFirstAndLinesThatDifferFromItAreMarked() {
        let here = Self.record(1, "here")
        let agents = [
            Self.record(2, "same"), here, Self.record(3, "other"), Self.record(4, "missing"), Self.record(5, "stuck"),
        ]
        var comparison = InspectorKeyComparison(
            address: Self.address, pointer: JSONPointer(tokens: []), agents: agents, own: here)
        #expect(comparison.lines.map(\.agent.pid) == [1, 2, 3, 4, 5])
        #expect(comparison.lines.map(\.own) == [true, false, false, false, false])
        #expect(!comparison.isComplete)
        comparison.record(agents[2], FleetOutcome.Result(.ok, value: "2"), seen: .item(Self.item("port", .integer(2))))
        // Before the agent in view answered, the first that did is the reference.
        #expect(comparison.lines.allSatisfy { !$0.differs })
        comparison.record(here, FleetOutcome.Result(.ok, value: "1"), seen: .item(Self.item("port", .integer(1))))
        comparison.record(agents[0], FleetOutcome.Result(.ok, value: "1"), seen: .item(Self.item("port", .integer(1))))
        comparison.record(agents[3], FleetOutcome.Result(.notFound), seen: .absent)
        comparison.record(agents[4], FleetOutcome.Result(.noAnswer), seen: .unknown)
        #expect(comparison.lines.map(\.differs) == [false, false, true, true, false])
        #expect(comparison.isComplete)
        // A real 1.0 is not the integer 1.
        comparison.record(agents[0], FleetOutcome.Result(.ok, value: "1.0"), seen: .item(Self.item("port", .real(1))))
        #expect(comparison.lines[1].differs)
    }

    /// The terminal's lines come from the same rule: marked against the agent in view, by
    /// value and not by the text shown, a missing key marked, a silent agent not.
    @Test func theTerminalsLinesAreMarkedByTheSameRule() {
        let here = Self.record(1, "iPhone")
        let agents = [
            Self.record(2, "iPad"), here, Self.record(3, "stuck"), Self.record(4, "mac"), Self.record(5, "bare"),
            Self.record(6, "twin"),
        ]
        var comparison = InspectorKeyComparison(
            address: Self.address, pointer: JSONPointer(tokens: []), agents: agents, own: here)
        #expect(comparison.textLines(width: 60).allSatisfy { $0.hasSuffix("reading…") })
        let long = String(repeating: "x", count: 300)
        comparison.record(
            agents[0], FleetOutcome.Result(.ok, value: "9090"), seen: .item(Self.item("port", .integer(9090))))
        comparison.record(here, FleetOutcome.Result(.ok, value: "8080"), seen: .item(Self.item("port", .integer(8080))))
        comparison.record(agents[2], FleetOutcome.Result(.noAnswer, reason: "no answer within 2 s"), seen: .unknown)
        comparison.record(
            agents[3], FleetOutcome.Result(.ok, value: "8080"), seen: .item(Self.item("port", .string(long))))
        comparison.record(
            agents[4], FleetOutcome.Result(.notFound, reason: "not on this agent"), seen: .absent)
        comparison.record(
            agents[5], FleetOutcome.Result(.ok, value: "8080"), seen: .item(Self.item("port", .integer(8080))))
        let lines = comparison.textLines(width: 60, unmatched: ["gone*"])
        #expect(
            lines == [
                "iPhone    8080", "iPad    ≠ 9090", "stuck     [no answer] no answer within 2 s",
                // Shown as the agent in view's value is shown, but a different value.
                "mac     ≠ 8080", "bare    ≠ [not found] not on this agent", "twin      8080",
                "gone*     [not running] no running agent matches 'gone*'; `…",
            ])
        #expect(lines.allSatisfy { $0.count <= 60 })
        // With the agent in view not among them, the first is the reference.
        var elsewhere = InspectorKeyComparison(
            address: Self.address, pointer: JSONPointer(tokens: []), agents: [agents[4], here], own: nil)
        elsewhere.record(agents[4], FleetOutcome.Result(.notFound, reason: "not on this agent"), seen: .absent)
        elsewhere.record(here, FleetOutcome.Result(.ok, value: "8080"), seen: .item(Self.item("port", .integer(8080))))
        #expect(elsewhere.textLines(width: 60).map { $0.contains("≠") } == [false, true])
    }

    @Test func followingTheAgentsKeepsWhatWasReadOfThoseStillRunning() {
        let here = Self.record(1, "here")
        let gone = Self.record(2, "gone")
        var comparison = InspectorKeyComparison(
            address: Self.address, pointer: JSONPointer(tokens: []), agents: [here, gone], own: here)
        comparison.record(here, FleetOutcome.Result(.ok, value: "1"), seen: .item(Self.item("port", .integer(1))))
        comparison.record(gone, FleetOutcome.Result(.ok, value: "2"), seen: .item(Self.item("port", .integer(2))))
        let fresh = Self.record(3, "fresh")
        comparison.follow([fresh, here], own: here)
        #expect(comparison.lines.map(\.agent.pid) == [1, 3])
        #expect(comparison.lines[0].outcome?.value == "1")
        #expect(comparison.lines[1].outcome == nil)
        // Two of one name are told apart.
        comparison.follow([here, Self.record(7, "twin"), Self.record(8, "twin")], own: here)
        #expect(comparison.lines.map(\.label) == ["here", "twin[7]", "twin[8]"])
    }

    @Test func eachDifferenceSaysWhatApplyingItDoesHereAndWhatCannotBeApplied() {
        let here = [
            Self.item("port", .integer(1)), Self.item("name", .string("Ada")), Self.item("mine", .boolean(true)),
        ]
        let there = [
            Self.item("port", .integer(2)), Self.item("name", .string("Ada")), Self.item("theirs", .string("x")),
            Self.item("token", .string("abc"), masked: true),
        ]
        let comparison = InspectorContainerComparison(here: here, there: there)
        #expect(comparison.differences.map(\.address.key) == ["mine", "port", "theirs", "token"])
        #expect(comparison.differences.map(\.kind) == [.removed, .changed, .added, .added])
        #expect(comparison.differences.map(\.applyLabel) == ["Remove here", "Use theirs here", "Add here", "Add here"])
        #expect(comparison.difference("token")?.blocked?.contains("masked secret") == true)
        #expect(comparison.difference("port")?.blocked == nil)
        #expect(comparison.difference("name") == nil)
        #expect(comparison.unchanged == 1)
        // A secret the snapshot left out is not compared, never "removed".
        let leftOut = InspectorContainerComparison(
            here: [Self.item("token", .string("abc"), masked: true)], there: [], leftOut: [there[3].address])
        #expect(leftOut.differences.isEmpty && leftOut.notCompared == 1)
    }

    @Test func aSnapshotFileIsReadWithTheDecoderOfDiffAndBoundedInBytes() throws {
        let snapshot = JarvisSnapshot(
            agent: ["name": "source"], exported: Date(timeIntervalSince1970: 0),
            items: [Self.item("port", .integer(9)), Self.item("other", .integer(1))].map { item in
                var moved = item
                if item.address.key == "other" { moved.address.container = "other.json" }
                return moved
            })
        let side = try InspectorContainerComparison.snapshotSide(
            Array(snapshot.text.utf8), name: "s.json", scanner: "files", container: "app.json")
        #expect(side.items.map(\.address.key) == ["port"])
        #expect(throws: JarvisError.self) {
            try InspectorContainerComparison.snapshotSide(
                Array(snapshot.text.utf8), name: "s.json", scanner: "files", container: "absent.json")
        }
        let notOne = #expect(throws: JarvisError.self) {
            try InspectorContainerComparison.snapshotSide(
                Array(#"{"a":1}"#.utf8), name: "n.json", scanner: "files", container: "app.json")
        }
        #expect(notOne?.message.contains("n.json is not a Jarvis snapshot") == true)
        let large = [UInt8](repeating: 0x20, count: InspectorContainerComparison.maxSnapshotBytes + 1)
        let tooLarge = #expect(throws: JarvisError.self) {
            try InspectorContainerComparison.snapshotSide(
                large, name: "l.json", scanner: "files", container: "app.json")
        }
        #expect(tooLarge?.message.contains("l.json is 512 KiB; the page compares snapshot files up to 512 KiB") == true)
    }
}
