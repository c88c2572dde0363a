// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote

    /// Benchmark 5: what embedding the agent costs a host — memory, start time, and CPU time
    /// while nobody asks anything, with no client and with one idle client connected.
    enum HostCostBench {
        struct Probe {
            let child: ChildProcess
            let home: URL
            var before = 0
            var after = 0
            var anonymousBefore = 0
            var anonymousAfter = 0
            var startMilliseconds = 0.0
            var threadsBefore = 0
            var threadsAfter = 0
            var socket = ""

            init() throws {
                home = try Fixture.temporaryFolder("host")
                // A private HOME: the default defaults scanner looks at the user's preferences folder.
                child = try ChildProcess(
                    try ChildProcess.sibling("jarvis-bench"), ["--host-probe", home.appendingPathComponent("rt").path],
                    environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path])
                before = Int(try child.value(after: "rss-before ")) ?? 0
                after = Int(try child.value(after: "rss-after ")) ?? 0
                anonymousBefore = Int(try child.value(after: "anon-before ")) ?? 0
                anonymousAfter = Int(try child.value(after: "anon-after ")) ?? 0
                startMilliseconds = Double(try child.value(after: "start-ms ")) ?? 0
                threadsBefore = Int(try child.value(after: "threads-before ")) ?? 0
                threadsAfter = Int(try child.value(after: "threads-after ")) ?? 0
                socket = try child.value(after: "socket ")
            }

            func rss() throws -> Int {
                child.send("rss")
                return Int(try child.value(after: "rss ")) ?? 0
            }

            func threads() throws -> Int {
                child.send("threads")
                return Int(try child.value(after: "threads ")) ?? 0
            }

            func stop() {
                child.closeInput()
                child.process.waitUntilExit()
                try? FileManager.default.removeItem(at: home)
            }
        }

        static func run(_ options: BenchOptions) throws -> Section {
            guard ProcFS.isAvailable else { return .skipped("host", "needs /proc (Linux) to read memory and CPU time") }
            let idle = options.idleSeconds ?? (options.quick ? 1 : 10)
            var section = Section(
                name: "host", title: "a host process embedding the agent (default scanners, private HOME)")
            var growth: [Double] = []
            var anonymousGrowth: [Double] = []
            var starts: [Double] = []
            var threads: [Double] = []
            for _ in 0..<options.runCount {
                let probe = try Probe()
                growth.append(Double(probe.after - probe.before) / 1_048_576)
                anonymousGrowth.append(Double(probe.anonymousAfter - probe.anonymousBefore) / 1_048_576)
                starts.append(probe.startMilliseconds)
                threads.append(Double(probe.threadsAfter - probe.threadsBefore))
                probe.stop()
            }
            let probe = try Probe()
            defer { probe.stop() }
            let idleTicks = ticks(of: probe.child.pid, over: idle)
            let client = try JarvisClient(
                endpoint: .unix(path: probe.socket), clientName: "jarvis-bench", timeout: .seconds(30))
            _ = try client.call("ping")
            // Let the connection settle before counting.
            Thread.sleep(forTimeInterval: 0.2)
            let clientTicks = ticks(of: probe.child.pid, over: idle)
            let withClient = Double(try probe.rss() - probe.before) / 1_048_576
            let clientThreads = try probe.threads() - probe.threadsBefore
            client.close()

            section.add("resident memory added by JarvisAgent.start", unit: "MiB", samples: growth)
            section.add("  of which anonymous (the agent's own allocations)", unit: "MiB", samples: anonymousGrowth)
            section.add("JarvisAgent.start", unit: "ms", samples: starts)
            section.add(
                "CPU ticks idle, no client, \(Report.number(idle)) s", unit: "ticks", samples: [Double(idleTicks)])
            section.add(
                "CPU ticks idle, 1 idle client, \(Report.number(idle)) s", unit: "ticks", samples: [Double(clientTicks)]
            )
            section.add("resident memory added, with 1 client connected", unit: "MiB", samples: [withClient])
            section.add("threads added by JarvisAgent.start", unit: "threads", samples: threads)
            section.add("threads added, with 1 client connected", unit: "threads", samples: [Double(clientThreads)])
            let agentLibraries = ["JarvisCore", "JarvisSystem", "JarvisTransport", "JarvisRemote", "JarvisScanners", "Jarvis"]
            if let libraries = BinarySize.libraries(agentLibraries) {
                for library in libraries {
                    section.add(
                        "binary size: \(library.name) code and data", unit: "KiB", samples: [Double(library.bytes) / 1024])
                }
                let total = Double(libraries.reduce(0) { $0 + $1.bytes }) / 1024
                section.add("binary size: the agent's libraries, before dead-code stripping", unit: "KiB", samples: [total])
            }
            section.below("resident memory added by start", Stats.median(growth), 2, unit: "MiB")
            section.atMost("CPU ticks idle, no client", Double(idleTicks), 0, unit: " ticks")
            section.atMost("CPU ticks idle, 1 idle client", Double(clientTicks), 0, unit: " ticks")
            section.notes.append(
                "resident growth minus anonymous growth is file-backed: code pages of the binary and of Foundation touched for "
                    + "the first time (shared, reclaimable); a second start in the same process adds nothing")
            section.notes.append(
                "binary size: loadable sections of this build's object files of each library (an upper bound for this "
                    + "architecture; a Release app strips what it never calls)")
            section.notes.append("a tick is 1/\(ProcFS.ticksPerSecond) s of user+system time (/proc/<pid>/stat)")
            return section
        }

        /// CPU ticks the process used over `seconds`.
        private static func ticks(of pid: Int32, over seconds: Double) -> Int {
            let first = ProcFS.cpuTicks(pid: pid) ?? 0
            Thread.sleep(forTimeInterval: seconds)
            return (ProcFS.cpuTicks(pid: pid) ?? 0) - first
        }
    }
#endif
