import Foundation
import JarvisCore
import JarvisScanners

/// Benchmark 3: `jarvis ls --json` of 10,000 items end to end (the real binary, output to
/// /dev/null) against the scan alone (`hub.list` in this process, same file, same state).
enum ListBench {
    static func run(_ options: BenchOptions) throws -> Section {
        let keys = options.size(10_000, quick: 1_000)
        let runs = options.runCount
        let folder = try Fixture.temporaryFolder("ls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Fixture.plist(count: keys)
        try Fixture.write(data, into: folder)
        let agent = try AgentChild(serving: folder)
        defer { agent.stop() }
        let cli = try ChildProcess.sibling("jarvis")

        let hub = JarvisHub(configuration: .debug)
        hub.register(DefaultsScanner.defaults(folder: folder))
        _ = try hub.list()
        var scan: [Double] = []
        var endToEnd: [Double] = []
        var inProcessClient: [Double] = []
        let client = try agent.connect()
        defer { client.close() }
        _ = try cliRun(cli, agent: agent)
        for _ in 0..<runs {
            let (items, seconds) = try timed { try hub.list().items.count }
            guard items == keys else { throw BenchFailure("hub.list saw \(items) items, expected \(keys)") }
            scan.append(seconds * 1000)
            endToEnd.append(try cliRun(cli, agent: agent) * 1000)
            inProcessClient.append(try timed { try client.call("list") }.1 * 1000)
        }
        var section = Section(name: "list", title: "jarvis ls --json of \(keys) items (\(ScanBench.megabytes(data.count)) MB plist) into /dev/null")
        section.add("scan alone (hub.list, in process)", unit: "ms", samples: scan)
        section.add("list call over the socket (JarvisClient)", unit: "ms", samples: inProcessClient)
        section.add("jarvis ls --json, whole process", unit: "ms", samples: endToEnd)
        section.atMost("jarvis ls --json / scan", Stats.median(endToEnd) / Stats.median(scan), 2)
        section.atMost("list call over the socket / scan", Stats.median(inProcessClient) / Stats.median(scan), 2)
        section.notes.append("the file is unchanged between runs, as the agent sees it; the whole-process time includes starting the jarvis binary")
        return section
    }

    /// Runs `jarvis --agent SOCKET ls --json` with its output thrown away; returns seconds.
    private static func cliRun(_ cli: URL, agent: AgentChild) throws -> Double {
        let process = Process()
        process.executableURL = cli
        process.arguments = ["--agent", agent.socketPath, "ls", "--json"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let seconds = (ContinuousClock.now - start).seconds
        guard process.terminationStatus == 0 else {
            throw BenchFailure("jarvis ls --json failed with status \(process.terminationStatus)")
        }
        return seconds
    }
}
