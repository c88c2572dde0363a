import JarvisCore
import Testing

@testable import JarvisRemote

/// Which agents `--agents` names: only those asked for, each once, and what matched nothing.
@Suite struct AgentSelectionTests {
    static func record(_ pid: Int32, _ name: String, bundle: String? = nil, device: String? = nil) -> AgentRecord {
        var record = AgentRecord(
            pid: pid, name: name, socket: "/run/\(pid).sock", started: "2026-11-28T00:00:0\(pid % 10)Z",
            platform: "Linux", program: "jarvis-agent")
        record.bundleID = bundle
        record.device = device
        return record
    }

    let running = [
        record(11, "dev-a"), record(12, "dev-b"), record(13, "App", bundle: "com.example.app", device: "iPhone 16"),
        record(14, "App", bundle: "com.example.app", device: "iPad"), record(15, "prod"),
    ]

    @Test func allNamesEveryRunningAgentAndNothingElse() throws {
        let resolved = try AgentSelection(parsing: "all").resolve(among: running)
        #expect(resolved.agents.map(\.pid) == [11, 12, 13, 14, 15])
        #expect(resolved.unmatched.isEmpty)
    }

    @Test func aListNamesOnlyItsAgentsEachOnceAndKeepsWhatMatchedNothing() throws {
        let resolved = try AgentSelection(parsing: "dev-b, 11,dev-b,nobody").resolve(among: running)
        #expect(resolved.agents.map(\.pid) == [11, 12])
        #expect(resolved.unmatched == ["nobody"])
    }

    @Test func aGlobMatchesNamesBundleIDsAndIdentities() throws {
        #expect(try AgentSelection(parsing: "dev-*").resolve(among: running).agents.map(\.pid) == [11, 12])
        #expect(try AgentSelection(parsing: "com.example.*").resolve(among: running).agents.map(\.pid) == [13, 14])
        #expect(try AgentSelection(parsing: "*@iPad").resolve(among: running).agents.map(\.pid) == [14])
        #expect(try AgentSelection(parsing: "x*").resolve(among: running).unmatched == ["x*"])
    }

    @Test func twoAgentsOfOneNameAreBothNamedAndShownApart() throws {
        let twins = [Self.record(21, "twin"), Self.record(22, "twin"), Self.record(23, "other")]
        let resolved = try AgentSelection(parsing: "twin").resolve(among: twins)
        #expect(resolved.agents.map(\.pid) == [21, 22])
        #expect(FleetRun.labels(for: resolved.agents) == ["twin[21]", "twin[22]"])
        #expect(FleetRun.labels(for: [running[2]]) == ["App@iPhone 16"])
    }

    @Test func anIdentityNamesTheAgentAcrossRestarts() throws {
        let before = Self.record(31, "App", bundle: "com.example.app", device: "iPhone 16")
        let after = Self.record(32, "App", bundle: "com.example.app", device: "iPhone 16")
        #expect(before.identity == "com.example.app/App@iPhone 16")
        #expect(before.identity == after.identity)
        #expect(try AgentSelection(parsing: "com.example.app/App@iPhone 16").resolve(among: [after]).agents == [after])
        // An older agent's record names no program: its identity is its name.
        #expect(AgentRecord(pid: 1, name: "old", socket: "/s", started: "", platform: "").identity == "old")
    }

    @Test func textThatNamesNoAgentIsRefused() {
        for text in ["", " , ,", "all,dev-a"] {
            #expect(throws: JarvisError.self) { try AgentSelection(parsing: text) }
        }
    }
}
