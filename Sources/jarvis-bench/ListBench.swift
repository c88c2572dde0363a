// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisScanners

    /// Benchmark 3: `jarvis ls --json` of 10,000 items end to end (the real binary, output to
    /// /dev/null) against the scan alone (`hub.list` in this process, same file, same state).
    ///
    /// Two regimes. "Fresh": the file is replaced before every run, so the scan includes reading
    /// it — the scan of benchmark 1 — and the target compares against that. "Cached": the file is
    /// unchanged, so the scan is only the hub's work on parsed entries; there the fixed cost of
    /// starting a process is reported beside the ratio, since it alone exceeds the scan.
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
            var freshScan: [Double] = []
            var freshEndToEnd: [Double] = []
            var processStart: [Double] = []
            let client = try agent.connect()
            defer { client.close() }
            _ = try cliRun(cli, agent: agent)
            for _ in 0..<runs {
                // Fresh: the file is replaced before each timed step, so both read it.
                try Fixture.write(data, into: folder)
                freshScan.append(try timed { try hub.list().items.count }.1 * 1000)
                try Fixture.write(data, into: folder)
                freshEndToEnd.append(try cliRun(cli, agent: agent) * 1000)
                // Cached: both have read the current file once; nothing changes while timed.
                _ = try hub.list()
                _ = try cliRun(cli, agent: agent)
                let (items, seconds) = try timed { try hub.list().items.count }
                guard items == keys else { throw BenchFailure("hub.list saw \(items) items, expected \(keys)") }
                scan.append(seconds * 1000)
                endToEnd.append(try cliRun(cli, agent: agent) * 1000)
                inProcessClient.append(try timed { try client.call("list") }.1 * 1000)
                processStart.append(try cliRun(cli, agent: agent, arguments: ["--version"]) * 1000)
            }
            var section = Section(
                name: "list",
                title: "jarvis ls --json of \(keys) items (\(ScanBench.megabytes(data.count)) MB plist) into /dev/null")
            section.add("scan, file replaced before each run (hub.list)", unit: "ms", samples: freshScan)
            section.add("jarvis ls --json, file replaced before each run", unit: "ms", samples: freshEndToEnd)
            section.add("scan, file unchanged (hub.list, in process)", unit: "ms", samples: scan)
            section.add("list call over the socket, file unchanged", unit: "ms", samples: inProcessClient)
            section.add("jarvis ls --json, file unchanged, whole process", unit: "ms", samples: endToEnd)
            section.add("jarvis --version, whole process (start-up alone)", unit: "ms", samples: processStart)
            section.atMost(
                "jarvis ls --json / scan, file replaced before each run",
                Stats.median(freshEndToEnd) / Stats.median(freshScan), 2)
            let wireAdded = Stats.median(endToEnd) - Stats.median(processStart)
            section.notes.append(
                "file unchanged: jarvis ls --json / scan = \(Report.number(Stats.median(endToEnd) / Stats.median(scan)))×, "
                    + "of which process start-up is \(Report.number(Stats.median(processStart))) ms; without it the CLI adds "
                    + "\(Report.number(wireAdded)) ms (\(Report.number(wireAdded / Stats.median(scan)))× the scan)")
            section.notes.append(
                "list call over the socket / scan, file unchanged: \(Report.number(Stats.median(inProcessClient) / Stats.median(scan)))× (JarvisClient decodes every item)"
            )
            return section
        }

        /// Runs `jarvis --agent SOCKET ls --json` with its output thrown away; returns seconds.
        private static func cliRun(_ cli: URL, agent: AgentChild, arguments: [String] = ["ls", "--json"]) throws
            -> Double
        {
            let process = Process()
            process.executableURL = cli
            process.arguments = ["--agent", agent.socketPath] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = ContinuousClock.now
            try process.run()
            process.waitUntilExit()
            let seconds = (ContinuousClock.now - start).inSeconds
            guard process.terminationStatus == 0 else {
                throw BenchFailure("jarvis ls --json failed with status \(process.terminationStatus)")
            }
            return seconds
        }
    }
#endif
