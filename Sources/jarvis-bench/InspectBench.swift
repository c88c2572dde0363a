// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisTestSupport

    /// Benchmark: `jarvis inspect` in a real terminal (an 80×24 tmux pane) against the real
    /// agent, measured as the CPU time the inspector process spends per key press (from
    /// /proc): arrow keys through 30,000 and 100,000 keys, typing a filter over 30,000 keys,
    /// opening a 10 MB value, and opening 200 levels of nested dictionaries one at a time.
    enum InspectBench {
        static func run(_ options: BenchOptions) throws -> Section {
            guard Tmux.isAvailable else {
                return .skipped("inspect", "tmux is not installed (apt-get install tmux)")
            }
            guard ProcFS.isAvailable else { return .skipped("inspect", "the CPU time is read from /proc (Linux)") }
            var section = Section(
                name: "inspect",
                title:
                    "jarvis inspect in an 80x24 tmux pane: CPU per key press with 30,000 and 100,000 keys, a 10 MB value, 200 levels"
            )
            let presses = options.size(100, quick: 20)
            let small = try keyPresses(keys: 30_000, presses: presses, options: options, &section)
            section.below("arrow key, 30,000 keys", small.arrow, 16, unit: "ms CPU")
            section.below("filter keystroke, 30,000 keys", small.filter, 16, unit: "ms CPU")
            section.below("pattern keystroke, 30,000 keys", small.pattern, 16, unit: "ms CPU")
            section.atMost("inspector CPU to open 30,000 keys / agent CPU to serve them", small.open, 1)
            let large = try keyPresses(
                keys: options.size(100_000, quick: 30_000), presses: presses, options: options, &section, filter: false)
            section.below("arrow key, 100,000 keys", large.arrow, 16, unit: "ms CPU")
            section.atMost("inspector CPU to open 100,000 keys / agent CPU to serve them", large.open, 1)
            try largeValues(options, &section)
            section.notes.append(
                "CPU time of the jarvis inspect process (user + system, /proc/PID/stat) over a batch of key presses, each waited for on screen, divided by the batch; the clock ticks at 10 ms, so a batch of \(presses) resolves \(Report.number(10.0 / Double(presses))) ms"
            )
            return section
        }

        /// The inspector on a suite of `keys` keys, opened on its keys: milliseconds of CPU
        /// per arrow key, per filter keystroke and per pattern keystroke (median of the runs),
        /// and the inspector's CPU to open the suite over the agent's CPU until then.
        private static func keyPresses(
            keys: Int, presses: Int, options: BenchOptions, _ section: inout Section, filter: Bool = true
        ) throws -> (arrow: Double, filter: Double, pattern: Double, open: Double) {
            let folder = try Fixture.temporaryFolder("insp")
            defer { try? FileManager.default.removeItem(at: folder) }
            try Fixture.write(try Fixture.plist(count: keys), into: folder)
            let agent = try AgentChild(serving: folder)
            defer { agent.stop() }
            let started = ContinuousClock.now
            let (pane, pid) = try inspector(agent, folder: folder)
            try pane.wait(for: Fixture.suite)
            try pane.keys(["Enter"])
            try pane.wait(for: "1-19/\(keys)")
            section.add("open \(keys) keys to the first screen", unit: "ms", samples: [milliseconds(since: started)])
            // Both processes' CPU until the first screen: the agent's reading and serving the
            // suite, the inspector's decoding, ordering and building its rows.
            let inspectorOpen = try cpuMilliseconds(pid)
            let agentOpen = try cpuMilliseconds(agent.pid)
            section.add("inspector CPU to open \(keys) keys", unit: "ms CPU", samples: [inspectorOpen])
            section.add("agent CPU until then", unit: "ms CPU", samples: [agentOpen])
            let open = inspectorOpen / max(agentOpen, 1)
            let label = keys.formatted()
            // The cursor to the last row on screen, so each press below scrolls the window
            // (and the screen says where it is).
            try pane.keys(Array(repeating: "Down", count: 19))
            try pane.wait(for: "2-20/\(keys)")
            var arrows: [Double] = []
            var cursor = 20
            for _ in 0..<options.runCount {
                let before = try cpuMilliseconds(pid)
                for _ in 0..<(presses / 10) {
                    try pane.keys(Array(repeating: "Down", count: 10))
                    cursor += 10
                    try pane.wait(for: "\(cursor - 18)-\(cursor)/\(keys)")
                }
                arrows.append((try cpuMilliseconds(pid) - before) / Double(presses / 10 * 10))
            }
            section.add("arrow key, \(label) keys", unit: "ms CPU", samples: arrows)
            guard filter else { return (Stats.median(arrows), 0, 0, open) }
            // Each keystroke of a filter narrows every key again (every key matches this
            // text); waited for one at a time. A pattern narrows nothing: every keystroke
            // matches every key.
            let text = try typing("bench.key.0", keys: keys, pane: pane, pid: pid, options: options)
            section.add("filter keystroke, \(label) keys", unit: "ms CPU", samples: text)
            let pattern = try typing("*ke?.0*", keys: keys, pane: pane, pid: pid, options: options)
            section.add("pattern keystroke, \(label) keys", unit: "ms CPU", samples: pattern)
            return (Stats.median(arrows), Stats.median(text), Stats.median(pattern), open)
        }

        /// Milliseconds of CPU per keystroke of `/`, `text` and Escape, one run per sample.
        private static func typing(_ text: String, keys: Int, pane: Tmux, pid: Int32, options: BenchOptions) throws
            -> [Double]
        {
            var typed: [Double] = []
            for _ in 0..<options.runCount {
                let before = try cpuMilliseconds(pid)
                try pane.type("/")
                try pane.wait(for: "Enter keeps it")
                var shown = ""
                for character in text {
                    try pane.type(String(character))
                    shown.append(character)
                    try pane.wait(for: "   /" + shown + "\n")
                }
                try pane.keys(["Escape"])
                try pane.wait(for: "/\(keys)")
                typed.append((try cpuMilliseconds(pid) - before) / Double(text.count + 2))
            }
            return typed
        }

        /// A 10 MB string and a dictionary nested 200 levels deep: CPU to open and scroll the
        /// big value, and per level opened.
        private static func largeValues(_ options: BenchOptions, _ section: inout Section) throws {
            let folder = try Fixture.temporaryFolder("insp")
            defer { try? FileManager.default.removeItem(at: folder) }
            let depth = 200
            var nested: Any = "bottom"
            for _ in 0..<depth { nested = ["d": nested] }
            let big = String(repeating: "0123456789abcdef ", count: 10 * 1024 * 1024 / 17)
            let values: [String: Any] = ["big": big, "deep": nested, "small": 1]
            try Fixture.write(
                try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0), into: folder)
            let agent = try AgentChild(serving: folder)
            defer { agent.stop() }
            let (pane, pid) = try inspector(agent, folder: folder)
            try pane.wait(for: Fixture.suite)
            try pane.keys(["Enter"])
            try pane.wait(for: "small")
            // The 10 MB value: its row, its detail, and scrolling it.
            var before = try cpuMilliseconds(pid)
            try pane.keys(["Home"])
            try pane.keys(["Enter"])
            try pane.wait(for: "lines 1-")
            for line in 2...21 {
                try pane.keys(["Down"])
                try pane.wait(for: "lines \(line)-")
            }
            section.add(
                "10 MB value: open its detail and scroll it, per key", unit: "ms CPU",
                samples: [
                    (try cpuMilliseconds(pid) - before) / 21
                ])
            try pane.keys(["Escape"])
            try pane.wait(for: "small")
            // 200 levels, one Enter each: the breadcrumb grows by one `d` per level.
            try pane.keys(["Down"])
            before = try cpuMilliseconds(pid)
            for level in 1...depth {
                try pane.keys(["Enter"])
                // scanner › container › deep › d…: the breadcrumb counts the levels.
                if level % 20 == 0 || level == depth { try pane.wait(for: "(\(level + 2) levels)") }
            }
            let perLevel = (try cpuMilliseconds(pid) - before) / Double(depth)
            section.add("200 nested levels, per level opened", unit: "ms CPU", samples: [perLevel])
            section.below("a level of 200 opened", perLevel, 16, unit: "ms CPU")
        }

        /// `jarvis inspect` on `agent` in a fresh pane, and its pid.
        private static func inspector(_ agent: AgentChild, folder: URL) throws -> (Tmux, Int32) {
            let jarvis = try ChildProcess.sibling("jarvis").path
            let pidFile = folder.appendingPathComponent("inspect.pid")
            // `exec` keeps the shell's pid, so the file names the inspector itself.
            var environment = ProcessInfo.processInfo.environment
            environment["JARVIS_RUNTIME_DIR"] = agent.runtime.path
            environment["NO_COLOR"] = "1"
            let pane = try Tmux(
                command: "echo $$ > '\(pidFile.path)'; exec '\(jarvis)' inspect --agent '\(agent.socketPath)'",
                environment: environment, folder: folder, columns: 80, rows: 24, patience: 120)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let text = try? String(contentsOf: pidFile, encoding: .utf8),
                    let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    return (pane, pid)
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            throw BenchFailure("the inspector's pane never started")
        }

        private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
            (ContinuousClock.now - start).inMilliseconds
        }

        private static func cpuMilliseconds(_ pid: Int32) throws -> Double {
            guard let ticks = ProcFS.cpuTicks(pid: pid) else { throw BenchFailure("no CPU time for pid \(pid)") }
            return Double(ticks) * 1000 / Double(ProcFS.ticksPerSecond)
        }
    }
#endif
