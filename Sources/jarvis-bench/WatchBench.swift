// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote

    /// Benchmark 4: from a write to the `changed` notification at a client, against the watch
    /// contract (`watch` → `{"subscription","sequence"}`, then `changed` notifications).
    ///
    /// Two writers: this process replacing a plist served by a child `jarvis-agent` (another
    /// process's file write), and a child host writing through `UserDefaults` in the agent's
    /// own process (`jarvis-bench --defaults-host`). Skipped when the agent has no `watch`.
    enum WatchBench {
        static let key = "bench.tick"
        static let userDefaultsSuite = "com.example.bench.watch"

        static func run(_ options: BenchOptions) throws -> Section {
            let events = options.size(20, quick: 5) * options.runCount
            var section = Section(name: "watch", title: "write to changed notification, \(events) writes per writer")
            let folder = try Fixture.temporaryFolder("watch")
            defer { try? FileManager.default.removeItem(at: folder) }
            try write(tick: -1, into: folder)
            let agent = try AgentChild(serving: folder)
            defer { agent.stop() }
            let client = try agent.connect()
            defer { client.close() }
            guard try subscribe(client, container: Fixture.suite) else {
                return .skipped("watch", "watch not available in this build (the agent answers methodNotFound)")
            }
            var fileLatencies: [Double] = []
            for tick in 0..<events {
                let start = ContinuousClock.now
                try write(tick: tick, into: folder)
                try awaitTick(tick, on: client)
                fileLatencies.append((ContinuousClock.now - start).inMilliseconds)
                // Writers in the real world do not rewrite a file within a millisecond.
                Thread.sleep(forTimeInterval: 0.02)
            }
            section.add("plist replaced by another process", unit: "ms", samples: fileLatencies)
            section.below("median, plist write by another process", Stats.median(fileLatencies), 10, unit: "ms")

            let host = try DefaultsHost.launch()
            defer { host.stop() }
            let hostClient = try JarvisClient(
                endpoint: .unix(path: host.socketPath), clientName: "jarvis-bench", timeout: .seconds(60))
            defer { hostClient.close() }
            guard try subscribe(hostClient, container: userDefaultsSuite) else {
                section.notes.append("the in-process UserDefaults host has no watch")
                return section
            }
            var defaultsLatencies: [Double] = []
            for tick in 0..<events {
                let start = ContinuousClock.now
                host.child.send("set \(tick)")
                try awaitTick(tick, on: hostClient)
                defaultsLatencies.append((ContinuousClock.now - start).inMilliseconds)
                Thread.sleep(forTimeInterval: 0.02)
            }
            section.add("UserDefaults.set in the host process", unit: "ms", samples: defaultsLatencies)
            section.below("median, in-process UserDefaults write", Stats.median(defaultsLatencies), 100, unit: "ms")
            section.notes.append("the UserDefaults figures include one pipe hop to tell the host to write")

            // A suite the program creates has no file until Foundation saves it (Linux keeps
            // UserDefaults writes in memory): measured to when the agent lists the suite, which
            // is how `jarvis get SUITE KEY` finds it, polled every millisecond. A host nobody
            // watches: a watch compares suites every 50 ms, which saves them on its own.
            let quiet = try DefaultsHost.launch()
            defer { quiet.stop() }
            let quietClient = try JarvisClient(
                endpoint: .unix(path: quiet.socketPath), clientName: "jarvis-bench", timeout: .seconds(60))
            defer { quietClient.close() }
            var freshLatencies: [Double] = []
            for tick in 0..<events {
                let suite = "com.example.bench.fresh\(tick)"
                let start = ContinuousClock.now
                quiet.child.send("put \(suite) \(key) \(tick)")
                let deadline = start + .seconds(10)
                while try !quietClient.containers(scanner: "defaults").contains(where: { $0.name == suite }) {
                    guard ContinuousClock.now < deadline else {
                        throw BenchFailure("suite \(suite), written by the host, not listed within 10 s")
                    }
                    Thread.sleep(forTimeInterval: 0.001)
                }
                freshLatencies.append((ContinuousClock.now - start).inMilliseconds)
            }
            section.add("new suite by UserDefaults.set in the host, to listed", unit: "ms", samples: freshLatencies)
            section.below("median, new suite written in process to listed", Stats.median(freshLatencies), 1000, unit: "ms")
            return section
        }

        /// Subscribes to one container; false when the agent does not know `watch`.
        private static func subscribe(_ client: JarvisClient, container: String) throws -> Bool {
            do {
                _ = try client.call("watch", ["scanner": "defaults", "container": .string(container)])
                return true
            } catch {
                if error.code == .methodNotFound { return false }
                throw error
            }
        }

        private static func write(tick: Int, into folder: URL) throws {
            let values: [String: Any] = [key: tick, "bench.other": "unchanged"]
            try Fixture.write(
                PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0), into: folder)
        }

        /// Waits for a `changed` notification that carries the tick's new value.
        private static func awaitTick(_ tick: Int, on client: JarvisClient) throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                guard let (method, params) = try client.nextNotification(timeout: deadline - ContinuousClock.now) else {
                    break
                }
                guard method == "changed" else { continue }
                for change in params["changes"]?.arrayValue ?? []
                where change["key"]?.stringValue == key && change["item"]?["value"]?.int64Value == Int64(tick) {
                    return
                }
            }
            throw BenchFailure("no changed notification for write \(tick) within 10 s")
        }
    }
#endif
