import JarvisTransport
// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote
    import JarvisScanners

    /// Benchmark 2: `get` round trips over the Unix socket against the real `jarvis-agent`, one
    /// client and 64 at once, beside Redis's `PING` measured by `redis-benchmark` in the same run.
    enum RoundTripBench {
        static let clients = 64

        /// Requests per second and latencies (ms) of one run.
        struct RunResult: Sendable {
            var rps: Double
            var p50: Double
            var p99: Double
        }

        static func run(_ options: BenchOptions) throws -> Section {
            let single = options.size(20_000, quick: 2_000)
            let perClient = options.size(1_000, quick: 100)
            let runs = options.runCount
            var section = Section(
                name: "roundtrip",
                title:
                    "get over the Unix socket: \(single) requests from 1 client, \(perClient) from each of \(clients) clients"
            )
            let folder = try Fixture.temporaryFolder("rt-data")
            defer { try? FileManager.default.removeItem(at: folder) }
            try Fixture.write(Fixture.plist(count: 20), into: folder)
            let agent = try AgentChild(serving: folder)
            defer { agent.stop() }
            let address = PreferenceAddress(scanner: "defaults", container: Fixture.suite, key: "bench.key.000000")

            let hubFigure = try hubGet(folder: folder, address: address, count: single)
            let absent = try absentGets(count: single)
            let redis = RedisReference.start()
            defer { redis?.stop() }

            // Jarvis and Redis take turns within each run, so that both see the same machine load.
            let one = try agent.connect()
            defer { one.close() }
            _ = try one.get(address)
            var singles: [RunResult] = []
            var redisSingle: [Double] = []
            var agentCPU: [Double] = []
            for _ in 0..<runs {
                let ticks = ProcFS.cpuTicks(pid: agent.pid)
                singles.append(try measure(client: one, address: address, count: single))
                if let ticks, let after = ProcFS.cpuTicks(pid: agent.pid) {
                    agentCPU.append(Double(after - ticks) / Double(ProcFS.ticksPerSecond) / Double(single) * 1_000_000)
                }
                if let redis { redisSingle.append(try redis.pingRate(clients: 1, requests: single)) }
            }

            // All connections stay open across runs, so no run waits for the agent to free a slot.
            var many: [JarvisClient] = []
            defer { many.forEach { $0.close() } }
            one.close()
            for index in 0..<clients { many.append(try agent.connect(name: "bench-\(index)")) }
            // Every client has said hello and now idles: the transport should cost descriptors,
            // not threads (it was one thread per connection: 67 threads here).
            Thread.sleep(forTimeInterval: 0.2)
            let idleThreads = ProcFS.threads(pid: agent.pid)
            var multis: [RunResult] = []
            var agentCPUMany: [Double] = []
            var redisMulti: [Double] = []
            let shared = many
            for _ in 0..<runs {
                let ticks = ProcFS.cpuTicks(pid: agent.pid)
                let start = ContinuousClock.now
                let perThread = Threads.run(clients) { index -> [Double] in
                    (try? latencies(client: shared[index], address: address, count: perClient)) ?? []
                }
                let elapsed = (ContinuousClock.now - start).inSeconds
                if let ticks, let after = ProcFS.cpuTicks(pid: agent.pid) {
                    agentCPUMany.append(
                        Double(after - ticks) / Double(ProcFS.ticksPerSecond) / Double(clients * perClient) * 1_000_000)
                }
                let all = perThread.flatMap { $0 }
                guard all.count == clients * perClient else {
                    throw BenchFailure("some of the \(clients) clients failed")
                }
                multis.append(
                    RunResult(
                        rps: Double(all.count) / elapsed, p50: Stats.percentile(all, 0.5),
                        p99: Stats.percentile(all, 0.99))
                )
                if let redis { redisMulti.append(try redis.pingRate(clients: clients, requests: clients * perClient)) }
            }

            // The same load from raw line clients: a pre-encoded request, the answer line read and
            // not decoded — what redis-benchmark does with PING, so the two servers compare alike.
            // The agent serves 64 clients at once: the JarvisClient connections make room first.
            many.forEach { $0.close() }
            Thread.sleep(forTimeInterval: 0.2)
            var raw: [LineClient] = []
            defer { raw.forEach { $0.close() } }
            for _ in 0..<clients { raw.append(try LineClient(endpoint: agent.endpoint, timeout: .seconds(30))) }
            let request = RPCRequest(
                id: .number(JSONNumber(1)), method: "get",
                params: [
                    "scanner": .string(address.scanner), "container": .string(address.container),
                    "key": .string(address.key),
                ]
            ).line
            // Redis's PING through the very same client code, so both servers meet the same
            // client cost (redis-benchmark's own client is a single-threaded C event loop).
            var redisRaw: [LineClient] = []
            defer { redisRaw.forEach { $0.close() } }
            if let redis {
                for _ in 0..<clients {
                    redisRaw.append(try LineClient(endpoint: redis.endpoint, timeout: .seconds(30)))
                }
            }
            let ping = Array("PING\r".utf8)
            var rawSingles: [RunResult] = []
            var rawMultis: [RunResult] = []
            var redisRawSingles: [RunResult] = []
            var redisRawMultis: [RunResult] = []
            // Server CPU per request under the same clients: the agent's per get, Redis's per PING.
            var rawCPU: (agent: [Double], redis: [Double]) = ([], [])
            var rawCPUMany: (agent: [Double], redis: [Double]) = ([], [])
            // The system calls' share of it (the kernel's side of read, send and the file checks).
            var rawSystemMany: (agent: [Double], redis: [Double]) = ([], [])
            var rawSystemSingle: (agent: [Double], redis: [Double]) = ([], [])
            let allRequests = clients * perClient
            for _ in 0..<runs {
                rawSingles.append(
                    try cpu(of: agent.pid, requests: single, into: &rawCPU.agent, system: &rawSystemSingle.agent) {
                        try rawRun(raw[0], request: request, count: single)
                    })
                if let first = redisRaw.first, let redis {
                    redisRawSingles.append(
                        try cpu(of: redis.pid, requests: single, into: &rawCPU.redis, system: &rawSystemSingle.redis) {
                            try rawRun(first, request: ping, count: single)
                        })
                }
                rawMultis.append(
                    try cpu(of: agent.pid, requests: allRequests, into: &rawCPUMany.agent, system: &rawSystemMany.agent) {
                        try rawRun(raw, request: request, perClient: perClient)
                    })
                if !redisRaw.isEmpty, let redis {
                    redisRawMultis.append(
                        try cpu(of: redis.pid, requests: allRequests, into: &rawCPUMany.redis, system: &rawSystemMany.redis) {
                            try rawRun(redisRaw, request: ping, perClient: perClient)
                        })
                }
            }

            section.add("jarvis get, 1 client", unit: "req/s", samples: singles.map(\.rps))
            section.add("jarvis get, 1 client, p50", unit: "ms", samples: singles.map(\.p50))
            section.add("jarvis get, 1 client, p99", unit: "ms", samples: singles.map(\.p99))
            section.add("agent CPU time per get, 1 client", unit: "µs", samples: agentCPU)
            section.add("hub.get alone, in process (scanner + hub)", unit: "µs", samples: hubFigure)
            for (name, samples) in absent.figures {
                section.add("hub.get of \(name), in process", unit: "µs", samples: samples)
            }
            // A hidden name must cost what a missing one costs (issue 17 item 8): both ways.
            section.atMost("hub.get, hidden suite / missing suite (the larger)", absent.hiddenOverMissing.max() ?? 0, 1.25)
            section.atLeast("hub.get, hidden suite / missing suite (the smaller)", absent.hiddenOverMissing.min() ?? 0, 0.8)
            section.add("jarvis get, 1 raw line client", unit: "req/s", samples: rawSingles.map(\.rps))
            section.add("jarvis get, \(clients) clients", unit: "req/s", samples: multis.map(\.rps))
            section.add("agent CPU time per get, \(clients) clients", unit: "µs", samples: agentCPUMany)
            section.add("jarvis get, \(clients) raw line clients", unit: "req/s", samples: rawMultis.map(\.rps))
            section.add("jarvis get, \(clients) clients, p50", unit: "ms", samples: multis.map(\.p50))
            section.add("jarvis get, \(clients) clients, p99", unit: "ms", samples: multis.map(\.p99))
            section.below("p99 latency, 1 client", Stats.median(singles.map(\.p99)), 1, unit: "ms")
            if let idleThreads {
                section.below("agent threads with \(clients) idle clients", Double(idleThreads), 8, unit: "threads")
            }
            if !agentCPU.isEmpty {
                let floor = Stats.median(hubFigure)
                section.notes.append(
                    "agent CPU per get is \(Report.number(Stats.median(agentCPU) / floor))× at 1 client and "
                        + "\(Report.number(Stats.median(agentCPUMany) / floor))× at \(clients) the in-process hub.get floor "
                        + "(\(Report.number(floor)) µs); the rest is the request codec, the loop and the socket's system calls"
                )
            }
            guard redis != nil else {
                section.notes.append(
                    "Redis reference skipped: install redis-server and redis-benchmark (Debian: apt-get install redis-server redis-tools)"
                )
                return section
            }
            section.add("redis PING, 1 client (redis-benchmark)", unit: "req/s", samples: redisSingle)
            section.add("redis PING, \(clients) clients (redis-benchmark)", unit: "req/s", samples: redisMulti)
            section.add("agent CPU time per get, 1 raw line client", unit: "µs", samples: rawCPU.agent)
            section.add("agent system time per get, 1 raw line client", unit: "µs", samples: rawSystemSingle.agent)
            section.add("agent CPU time per get, \(clients) raw line clients", unit: "µs", samples: rawCPUMany.agent)
            section.add(
                "agent system time per get, \(clients) raw line clients", unit: "µs", samples: rawSystemMany.agent)
            section.add("redis PING, 1 raw line client", unit: "req/s", samples: redisRawSingles.map(\.rps))
            section.add("redis PING, \(clients) raw line clients", unit: "req/s", samples: redisRawMultis.map(\.rps))
            section.add("redis-server CPU time per PING, 1 raw line client", unit: "µs", samples: rawCPU.redis)
            section.add("redis-server system time per PING, 1 raw line client", unit: "µs", samples: rawSystemSingle.redis)
            section.add(
                "redis-server CPU time per PING, \(clients) raw line clients", unit: "µs", samples: rawCPUMany.redis)
            section.add(
                "redis-server system time per PING, \(clients) raw line clients", unit: "µs", samples: rawSystemMany.redis)
            let singleRatios = zip(rawSingles, redisSingle).map { $0.rps / $1 }
            let multiRatios = zip(rawMultis, redisMulti).map { $0.rps / $1 }
            section.atLeast(
                "jarvis get (raw line client) / redis PING, 1 client (median of per-run ratios)",
                Stats.median(singleRatios), 0.7)
            section.atLeast(
                "jarvis get (raw line clients) / redis PING, \(clients) clients (median of per-run ratios)",
                Stats.median(multiRatios), 0.7)
            section.atLeast(
                "jarvis get / redis PING, both through the same raw line client, 1 client (median of per-run ratios)",
                Stats.median(zip(rawSingles, redisRawSingles).map { $0.rps / $1.rps }), 0.7)
            section.atLeast(
                "jarvis get / redis PING, both through the same raw line clients, \(clients) clients (median of per-run ratios)",
                Stats.median(zip(rawMultis, redisRawMultis).map { $0.rps / $1.rps }), 0.7)
            let clientSingle = Stats.median(zip(singles, redisSingle).map { $0.rps / $1 })
            let clientMulti = Stats.median(zip(multis, redisMulti).map { $0.rps / $1 })
            section.notes.append(
                "raw line clients send a pre-encoded request and read the answer line without decoding it, as redis-benchmark "
                    + "does with PING; with JarvisClient (JSON-RPC encode, parse and item decode per call, in the same 2 cores) "
                    + "the ratios are \(Report.number(clientSingle))× at 1 client and \(Report.number(clientMulti))× at \(clients)"
            )
            return section
        }

        /// Microseconds per `hub.get` on the same folder, in this process: the part of a round
        /// trip that is the scanner's and the hub's, not the wire's.
        private static func hubGet(folder: URL, address: PreferenceAddress, count: Int) throws -> [Double] {
            let hub = JarvisHub(configuration: .debug)
            hub.register(DefaultsScanner.defaults(folder: folder))
            _ = try hub.get(address)
            var samples: [Double] = []
            for _ in 0..<3 {
                let (_, seconds) = try timed { for _ in 0..<count { _ = try hub.get(address) } }
                samples.append(seconds / Double(count) * 1_000_000)
            }
            return samples
        }

        /// Microseconds per `hub.get` answering `notFound`, for a hidden suite that exists, a
        /// hidden one that does not, and a visible one that does not; and for each hidden one,
        /// the median over runs of its time over the missing one's.
        private static func absentGets(count: Int) throws -> (
            figures: [(String, [Double])], hiddenOverMissing: [Double]
        ) {
            let folder = try Fixture.temporaryFolder("rt-hidden")
            defer { try? FileManager.default.removeItem(at: folder) }
            try Fixture.write(Fixture.plist(count: 20), suite: "com.apple.bench", into: folder)
            let hub = JarvisHub(configuration: .debug)
            hub.register(DefaultsScanner.defaults(folder: folder))
            let names = [
                ("a hidden suite that exists", "com.apple.bench"), ("a hidden suite that does not", "com.apple.none"),
                ("a missing suite", "com.example.none"),
            ]
            var samples = names.map { _ in [Double]() }
            // Interleaved, so that all three see the same machine load.
            for _ in 0..<3 {
                for (index, (_, suite)) in names.enumerated() {
                    let address = PreferenceAddress(scanner: "defaults", container: suite, key: "bench.key.000000")
                    let (_, seconds) = timed { for _ in 0..<count { _ = try? hub.get(address) } }
                    samples[index].append(seconds / Double(count) * 1_000_000)
                }
            }
            let ratios = [0, 1].map { hidden in Stats.median(zip(samples[hidden], samples[2]).map { $0 / $1 }) }
            return (zip(names.map(\.0), samples).map { ($0, $1) }, ratios)
        }

        private static func measure(client: JarvisClient, address: PreferenceAddress, count: Int) throws -> RunResult {
            let start = ContinuousClock.now
            let all = try latencies(client: client, address: address, count: count)
            let elapsed = (ContinuousClock.now - start).inSeconds
            return RunResult(
                rps: Double(count) / elapsed, p50: Stats.percentile(all, 0.5), p99: Stats.percentile(all, 0.99))
        }

        /// Runs `body` and adds to `samples` the CPU time process `pid` spent meanwhile, in µs
        /// per request (nothing where `/proc` cannot tell).
        private static func cpu<T>(
            of pid: Int32, requests: Int, into samples: inout [Double], system: inout [Double], _ body: () throws -> T
        ) rethrows -> T {
            let before = ProcFS.cpuTimes(pid: pid)
            let result = try body()
            if let before, let after = ProcFS.cpuTimes(pid: pid) {
                let scale = 1_000_000 / Double(ProcFS.ticksPerSecond) / Double(requests)
                samples.append(Double(after.user + after.system - before.user - before.system) * scale)
                system.append(Double(after.system - before.system) * scale)
            }
            return result
        }

        /// One client sending `count` requests one after another.
        private static func rawRun(_ client: LineClient, request: [UInt8], count: Int) throws -> RunResult {
            let start = ContinuousClock.now
            let latencies = try rawLatencies(client: client, request: request, count: count)
            let elapsed = (ContinuousClock.now - start).inSeconds
            return RunResult(
                rps: Double(count) / elapsed, p50: Stats.percentile(latencies, 0.5),
                p99: Stats.percentile(latencies, 0.99))
        }

        /// Every client at once, each sending `perClient` requests one after another.
        private static func rawRun(_ clients: [LineClient], request: [UInt8], perClient: Int) throws -> RunResult {
            let start = ContinuousClock.now
            let perThread = Threads.run(clients.count) { index -> [Double] in
                (try? rawLatencies(client: clients[index], request: request, count: perClient)) ?? []
            }
            let elapsed = (ContinuousClock.now - start).inSeconds
            let all = perThread.flatMap { $0 }
            guard all.count == clients.count * perClient else {
                throw BenchFailure("some of the \(clients.count) raw clients failed")
            }
            return RunResult(
                rps: Double(all.count) / elapsed, p50: Stats.percentile(all, 0.5), p99: Stats.percentile(all, 0.99))
        }

        /// Sends the same request line `count` times, one after another, reading each answer line;
        /// returns each round trip in milliseconds.
        private static func rawLatencies(client: LineClient, request: [UInt8], count: Int) throws -> [Double] {
            var result: [Double] = []
            result.reserveCapacity(count)
            for _ in 0..<count {
                let start = ContinuousClock.now
                try client.send(request)
                guard try client.receiveLine(timeout: .seconds(30)) != nil else {
                    throw BenchFailure("the agent closed a connection")
                }
                result.append((ContinuousClock.now - start).inMilliseconds)
            }
            return result
        }

        /// Sends `count` gets one after another; returns each round trip in milliseconds.
        private static func latencies(client: JarvisClient, address: PreferenceAddress, count: Int) throws -> [Double] {
            var result: [Double] = []
            result.reserveCapacity(count)
            for _ in 0..<count {
                let start = ContinuousClock.now
                _ = try client.get(address)
                result.append((ContinuousClock.now - start).inMilliseconds)
            }
            return result
        }
    }
#endif
