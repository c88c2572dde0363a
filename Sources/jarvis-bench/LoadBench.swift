// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote

    /// Benchmark 6: the agent's resident memory for one list of 10,000 items, and its peak while
    /// 64 clients each list them at once, against the size of the data (the plist on disk and
    /// one `list` answer on the wire).
    enum LoadBench {
        static let clients = 64

        static func run(_ options: BenchOptions) throws -> Section {
            guard ProcFS.isAvailable else { return .skipped("load", "needs /proc (Linux) to read VmHWM") }
            let keys = options.size(10_000, quick: 1_000)
            let folder = try Fixture.temporaryFolder("load")
            defer { try? FileManager.default.removeItem(at: folder) }
            let data = try Fixture.plist(count: keys)
            try Fixture.write(data, into: folder)
            var before: [Double] = []
            var firstList: [Double] = []
            var secondList: [Double] = []
            var idle: [Double] = []
            var peak: [Double] = []
            var wall: [Double] = []
            var answerBytes = 0
            for _ in 0..<max(2, min(options.runCount, 3)) {
                let agent = try AgentChild(serving: folder)
                defer { agent.stop() }
                // One list first, so the idle figure is the agent having served once.
                let probe = try agent.connect()
                let start = Double(ProcFS.memory("VmRSS", pid: agent.pid) ?? 0) / 1_048_576
                before.append(start)
                answerBytes = JSONWriter.bytes(try probe.call("list")).count
                probe.close()
                firstList.append(Double(ProcFS.memory("VmHWM", pid: agent.pid) ?? 0) / 1_048_576 - start)
                idle.append(Double(ProcFS.memory("VmRSS", pid: agent.pid) ?? 0) / 1_048_576)
                let again = try agent.connect()
                _ = try again.call("list")
                again.close()
                secondList.append(
                    Double(ProcFS.memory("VmHWM", pid: agent.pid) ?? 0) / 1_048_576 - idle[idle.count - 1])
                let endpoint = agent.endpoint
                let clock = ContinuousClock.now
                let counts = Threads.run(clients) { index -> Int in
                    guard
                        let client = try? JarvisClient(
                            endpoint: endpoint, clientName: "load-\(index)", timeout: .seconds(120))
                    else { return -1 }
                    defer { client.close() }
                    return (try? client.call("list")["items"]?.arrayValue?.count) ?? -1
                }
                wall.append((ContinuousClock.now - clock).inMilliseconds)
                guard counts.allSatisfy({ $0 == keys }) else {
                    throw BenchFailure("some of the \(clients) clients did not get \(keys) items")
                }
                peak.append(Double(ProcFS.memory("VmHWM", pid: agent.pid) ?? 0) / 1_048_576)
            }
            var section = Section(
                name: "load",
                title:
                    "\(clients) clients each listing \(keys) items (\(ScanBench.megabytes(data.count)) MB plist, \(ScanBench.megabytes(answerBytes)) MB answer)"
            )
            section.add("agent resident memory before the first list", unit: "MiB", samples: before)
            section.add("added by the first list (peak - before)", unit: "MiB", samples: firstList)
            section.add("agent resident memory after one list", unit: "MiB", samples: idle)
            section.add("added by a second list (suite cached)", unit: "MiB", samples: secondList)
            section.add("agent peak resident memory (VmHWM)", unit: "MiB", samples: peak)
            section.add("all \(clients) lists answered", unit: "ms", samples: wall)
            section.atMost("resident memory added by one list", Stats.median(firstList), 8, unit: " MiB")
            section.atMost(
                "agent peak resident memory, \(clients) clients listing", Stats.median(peak), 64, unit: " MiB")
            let megabytes = Double(data.count) / 1_048_576
            section.notes.append("peak / plist size: \(Report.number(Stats.median(peak) / megabytes))×")
            section.notes.append(
                "(peak - after one list) / (\(clients) × answer size): \(Report.number((Stats.median(peak) - Stats.median(idle)) / (Double(clients * answerBytes) / 1_048_576)))×"
            )
            section.notes.append(
                "the first list includes parsing the suite into the scanner's cache, which later lists reuse")
            return section
        }
    }
#endif
