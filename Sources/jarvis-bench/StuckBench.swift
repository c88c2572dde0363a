// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote
    import JarvisTestSupport
    import JarvisTransport

    /// Benchmark: what one client's slow work costs the others (issue 26). Another client's
    /// `get` round trip, at the 99th percentile, while (1) one client's `get` waits on the first
    /// parse of a large JSON file, over and over (the file is touched before each, so it is
    /// parsed again), and (2) one client reads a listing of about 30 MB as fast as it can.
    enum StuckBench {
        static func run(_ options: BenchOptions) throws -> Section {
            let folder = try Fixture.temporaryFolder("stuck")
            defer { try? FileManager.default.removeItem(at: folder) }
            let suites = folder.appendingPathComponent("prefs")
            let files = folder.appendingPathComponent("files")
            for place in [suites, files] { try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true) }
            let bigKeys = options.size(200_000, quick: 20_000)
            try Fixture.write(try Fixture.plist(count: bigKeys), suite: "bench.big", into: suites)
            try Fixture.write(try Fixture.plist(count: 10), into: suites)
            let json = files.appendingPathComponent("big.json")
            let jsonBytes = bigJSON(megabytes: options.quick ? 2 : 15)
            try Data(jsonBytes).write(to: json)

            // A D-Bus bus that accepts and never answers: a hung desktop keyring.
            let bus = try SilentListener(path: folder.appendingPathComponent("bus").path)
            defer { bus.stop() }
            let agent = try AgentChild(
                serving: suites, extra: ["--files", files.path, "--secret-service", "--request-timeout", "2"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.busAddress])
            defer { agent.stop() }
            let get = request("get", ["scanner": "defaults", "container": Fixture.suite, "key": "bench.key.000000"])
            let parse = request("get", ["scanner": "files", "container": "big.json", "key": "k0"])
            let listing = request("list", ["scanner": "defaults", "container": "bench.big"])
            let fileListing = request("list", ["scanner": "files", "container": "big.json"])
            let everything = request("list", [:])
            let count = options.size(3000, quick: 300)

            let other = try LineClient(endpoint: agent.endpoint, timeout: .seconds(60))
            defer { other.close() }
            let quiet = try latencies(other, get, count: count)

            // (1) One client's get waits on a JSON file's first parse, again and again.
            let parser = try LineClient(endpoint: agent.endpoint, timeout: .seconds(60))
            defer { parser.close() }
            let (parsing, parseTimes) = try whileBusy(other, get, count: count) { () throws -> Double in
                try touch(json)
                return try roundTrip(parser, parse)
            }

            // (2) One client reads a ~30 MB listing as fast as it can.
            let reader = try LineClient(endpoint: agent.endpoint, timeout: .seconds(120))
            defer { reader.close() }
            var answerBytes = 0
            let start = ContinuousClock.now
            try reader.send(listing)
            answerBytes = try reader.receiveLine(timeout: .seconds(120))?.count ?? 0
            let firstList = (ContinuousClock.now - start).inMilliseconds
            let (reading, listTimes) = try whileBusy(other, get, count: count) { () throws -> Double in
                try roundTrip(reader, listing)
            }

            // (3) One client's listing parses the JSON file, again and again.
            let fileLister = try LineClient(endpoint: agent.endpoint, timeout: .seconds(60))
            defer { fileLister.close() }
            let (listParsing, listParseTimes) = try whileBusy(other, get, count: count) { () throws -> Double in
                try touch(json)
                return try roundTrip(fileLister, fileListing)
            }

            // (4) One client lists everything, the keyring included, whose bus never answers:
            // each listing ends at the request timeout, naming the keyring.
            let hung = try LineClient(endpoint: agent.endpoint, timeout: .seconds(60))
            defer { hung.close() }
            let (keyringWaiting, keyringTimes) = try whileBusy(other, get, count: count) { () throws -> Double in
                try roundTrip(hung, everything)
            }

            var section = Section(
                name: "stuck",
                title:
                    "another client's get while one waits on storage or reads a long answer (\(Report.number(Double(jsonBytes.count) / 1_048_576)) MiB JSON file, \(Report.number(Double(answerBytes) / 1_048_576)) MiB listing)"
            )
            section.add("get round trip, nothing else running", unit: "ms", samples: quiet)
            section.add("get round trip while another client's get parses the JSON file", unit: "ms", samples: parsing)
            section.add("that client's get (parse of the whole file)", unit: "ms", samples: parseTimes)
            section.add("get round trip while another client reads the listing", unit: "ms", samples: reading)
            section.add("that client's listing", unit: "ms", samples: listTimes)
            section.add("get round trip while another client's listing parses the JSON file", unit: "ms", samples: listParsing)
            section.add("that client's listing (parse of the whole file)", unit: "ms", samples: listParseTimes)
            section.add("get round trip while another client's listing waits on a hung keyring", unit: "ms", samples: keyringWaiting)
            section.add("that client's listing (ends at the 2 s request timeout)", unit: "ms", samples: keyringTimes)
            section.atMost("p99 get while a JSON file is parsed for another client", Stats.percentile(parsing, 0.99), 50, unit: " ms")
            section.atMost(
                "p99 get while another client's listing parses a JSON file", Stats.percentile(listParsing, 0.99), 50,
                unit: " ms")
            section.atMost(
                "p99 get while another client's listing waits on a hung keyring", Stats.percentile(keyringWaiting, 0.99), 50,
                unit: " ms")
            section.atMost("p99 get while another client reads a 30 MB listing", Stats.percentile(reading, 0.99), 50, unit: " ms")
            section.notes.append(
                "first listing (suite parsed into the cache): \(Report.number(firstList)) ms; \(bigKeys) keys")
            section.notes.append(
                "the parse runs on the agent's work pool; the loop answers gets of the watched, unchanged suite from memory and writes at most 64 KiB per connection per turn")
            return section
        }

        /// A JSON object of about `megabytes` MiB: keys `k0`… with string values.
        private static func bigJSON(megabytes: Int) -> [UInt8] {
            var bytes: [UInt8] = Array("{".utf8)
            let value = String(repeating: "x", count: 200)
            var index = 0
            while bytes.count < megabytes << 20 {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += Array("\"k\(index)\":\"\(value)\"".utf8)
                index += 1
            }
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }

        /// Gives the file a new modification time: the agent's cache no longer holds it.
        private static func touch(_ url: URL) throws {
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        }

        private static func request(_ method: String, _ params: [String: String]) -> [UInt8] {
            RPCRequest(
                id: .number(JSONNumber(1)), method: method,
                params: JSONObject(params.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
            ).line
        }

        /// One request and its whole answer line, in milliseconds.
        private static func roundTrip(_ client: LineClient, _ request: [UInt8]) throws -> Double {
            let start = ContinuousClock.now
            try client.send(request)
            guard let answer = try client.receiveLine(timeout: .seconds(120)) else {
                throw BenchFailure("the agent closed a connection")
            }
            guard !answer.starts(with: Array(#"{"jsonrpc":"2.0","id":1,"error""#.utf8)) else {
                throw BenchFailure("the agent refused: \(String(decoding: answer.prefix(300), as: UTF8.self))")
            }
            return (ContinuousClock.now - start).inMilliseconds
        }

        private static func latencies(_ client: LineClient, _ request: [UInt8], count: Int) throws -> [Double] {
            try (0..<count).map { _ in try roundTrip(client, request) }
        }

        /// `client`'s round trips of `request` while `busy` runs again and again on another
        /// thread (which has started once before the first is timed); also `busy`'s own times.
        private static func whileBusy(
            _ client: LineClient, _ request: [UInt8], count: Int, _ busy: @escaping @Sendable () throws -> Double
        ) throws -> ([Double], [Double]) {
            let stop = Locked(false)
            let times = Locked<[Double]>([])
            let failure = Locked<String?>(nil)
            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                var signalled = false
                while !stop.current {
                    do {
                        let time = try busy()
                        times.withLock { $0.append(time) }
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                        break
                    }
                    if !signalled {
                        signalled = true
                        started.signal()
                    }
                }
                if !signalled { started.signal() }
                done.signal()
            }
            thread.start()
            // The busy client's second request is on its way when the timing starts.
            started.wait()
            let measured = try latencies(client, request, count: count)
            stop.withLock { $0 = true }
            done.wait()
            if let failure = failure.current { throw BenchFailure(failure) }
            return (measured, times.current)
        }
    }
#endif
