// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote

    /// Benchmark 7: watching a small suite that sits beside a huge one, and file events for
    /// files that are not suites. The watch must read (and keep) only what it watches, and
    /// unrelated files in the folder must cause no reads at all.
    enum WatchScopeBench {
        static let small = "com.example.small"
        static let big = "com.example.big"

        static func run(_ options: BenchOptions) throws -> Section {
            guard ProcFS.isAvailable else { return .skipped("watchscope", "needs /proc (Linux) for memory and CPU") }
            let bigKeys = options.size(200_000, quick: 20_000)
            let sets = options.size(100, quick: 20)
            let events = options.size(500, quick: 100)
            let folder = try Fixture.temporaryFolder("scope")
            defer { try? FileManager.default.removeItem(at: folder) }
            let bigData = try Fixture.plist(count: bigKeys)
            try Fixture.write(bigData, suite: big, into: folder)
            try writeSmall(tick: 0, into: folder)

            var startTimes: [Double] = []
            var startMemory: [Double] = []
            var unwatched: [Double] = []
            var watched: [Double] = []
            var churnTicks: [Double] = []
            var idleTicks: [Double] = []
            var readAllTicks: [Double] = []
            var churned: [Double] = []
            var churnedQuiet: [Double] = []
            for _ in 0..<max(1, min(options.runCount, 3)) {
                let agent = try AgentChild(serving: folder)
                defer { agent.stop() }
                let watcher = try agent.connect(name: "watcher")
                defer { watcher.close() }
                let before = ProcFS.memory("VmRSS", pid: agent.pid) ?? 0
                let (_, seconds) = try timed { try watcher.watch(scanner: "defaults", container: small) }
                startTimes.append(seconds * 1000)
                startMemory.append(Double((ProcFS.memory("VmHWM", pid: agent.pid) ?? 0) - before) / 1_000_000)

                // Set latency beside the huge suite, on an agent where nobody watches and here, in
                // turns, so that load on the machine weighs on both alike.
                let address = PreferenceAddress(scanner: "defaults", container: small, key: "tick")
                let quiet = try AgentChild(serving: folder)
                defer { quiet.stop() }
                let quietWriter = try quiet.connect(name: "writer")
                defer { quietWriter.close() }
                let writer = try agent.connect(name: "writer")
                defer { writer.close() }
                // The first write lists the folder's suites once (the scanner caches them).
                try quietWriter.set(address, to: .integer(-1))
                try writer.set(address, to: .integer(-1))
                var quietSamples: [Double] = []
                var watchedSamples: [Double] = []
                for _ in 0..<sets / 10 {
                    quietSamples += try setLatencies(quietWriter, address, count: 10, drain: nil)
                    watchedSamples += try setLatencies(writer, address, count: 10, drain: watcher)
                }
                unwatched.append(Stats.median(quietSamples))
                watched.append(Stats.median(watchedSamples))

                // Everything watched now, the huge suite included; then a storm of files that
                // are not suites: none of them may cause a read.
                let everything = try agent.connect(name: "everything")
                defer { everything.close() }
                let readStart = ProcFS.cpuTicks(pid: agent.pid) ?? 0
                _ = try everything.watch(scanner: "defaults")
                readAllTicks.append(Double((ProcFS.cpuTicks(pid: agent.pid) ?? 0) - readStart))
                Thread.sleep(forTimeInterval: 0.2)
                let idleStart = ProcFS.cpuTicks(pid: agent.pid) ?? 0
                Thread.sleep(forTimeInterval: 0.7)
                idleTicks.append(Double((ProcFS.cpuTicks(pid: agent.pid) ?? 0) - idleStart))
                let ticks = ProcFS.cpuTicks(pid: agent.pid) ?? 0
                try unrelatedFiles(events, in: folder)
                Thread.sleep(forTimeInterval: 0.5)
                churnTicks.append(Double((ProcFS.cpuTicks(pid: agent.pid) ?? 0) - ticks))
                let storm = DispatchGroup()
                DispatchQueue.global().async(group: storm) { try? unrelatedFiles(events * 4, in: folder) }
                // In turns with the agent nobody watches, which feels the same load on the machine.
                var quietStorm: [Double] = []
                var watchedStorm: [Double] = []
                for _ in 0..<sets / 10 {
                    quietStorm += try setLatencies(quietWriter, address, count: 10, drain: nil)
                    watchedStorm += try setLatencies(writer, address, count: 10, drain: everything)
                }
                storm.wait()
                churnedQuiet.append(Stats.median(quietStorm))
                churned.append(Stats.median(watchedStorm))
            }
            var section = Section(
                name: "watchscope",
                title:
                    "watch a 3-key suite beside a \(bigKeys)-key suite (\(ScanBench.megabytes(bigData.count)) MB plist); \(events) files that are not suites"
            )
            section.add("watch of the small suite answered", unit: "ms", samples: startTimes)
            section.add("agent memory added by that watch (peak)", unit: "MB", samples: startMemory)
            section.add("set on the small suite, not watched", unit: "ms", samples: unwatched)
            section.add("set on the small suite, watched", unit: "ms", samples: watched)
            section.add("agent CPU to read every suite once (watch of all)", unit: "ticks", samples: readAllTicks)
            section.add("agent CPU, idle, all watched, 0.7 s", unit: "ticks", samples: idleTicks)
            section.add("agent CPU for \(events) unrelated file events", unit: "ticks", samples: churnTicks)
            section.add("set on the small suite, not watched, files churning", unit: "ms", samples: churnedQuiet)
            section.add("set on the small suite, all watched, files churning", unit: "ms", samples: churned)
            section.atMost("watch start beside the huge suite", Stats.median(startTimes), 300, unit: " ms")
            section.atMost("memory added by the watch", Stats.median(startMemory), 20, unit: " MB")
            section.atMost(
                "set latency watched / not watched", Stats.median(watched) / Stats.median(unwatched), 1.5)
            section.atMost(
                "set latency, files churning, all watched / not watched",
                Stats.median(churned) / Stats.median(churnedQuiet),
                1.5
            )
            let perFile = Stats.median(churnTicks) * 1000 / Double(ProcFS.ticksPerSecond) / Double(events)
            section.atMost("agent CPU per unrelated file written", perFile, 0.25, unit: " ms")
            section.notes.append(
                "a tick is 1/100 s of the agent's user+system time; set latency is the median of \(sets) sets")
            section.notes.append(
                "unrelated files cause no container read; what remains is waking up for their inotify events (reading every suite again, as each such event used to, costs the 'read every suite once' figure)"
            )
            return section
        }

        private static func writeSmall(tick: Int, into folder: URL) throws {
            let values: [String: Any] = ["tick": tick, "mode": "light", "count": 3]
            try Fixture.write(
                PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0), suite: small,
                into: folder)
        }

        /// Times `count` sets of the key, emptying the watcher's notifications as it goes.
        private static func setLatencies(
            _ writer: JarvisClient, _ address: PreferenceAddress, count: Int, drain: JarvisClient?
        ) throws -> [Double] {
            var samples: [Double] = []
            for index in 0..<count {
                let (_, seconds) = try timed { try writer.set(address, to: .integer(Int64(index))) }
                samples.append(seconds * 1000)
                while let drain, (try? drain.nextNotification(timeout: .zero)) != nil {}
            }
            return samples
        }

        /// Creates and removes files that are not suites in the watched folder.
        private static func unrelatedFiles(_ count: Int, in folder: URL) throws {
            for index in 0..<count {
                let url = folder.appendingPathComponent("notes-\(index % 16).txt")
                try Data("note \(index)\n".utf8).write(to: url)
                if index % 2 == 1 { try? FileManager.default.removeItem(at: url) }
            }
        }
    }
#endif
