// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisRemote
    import JarvisTransport

    /// Benchmark: `jarvis web` over a 100,000-key suite, measured as its page uses it (the
    /// same requests, over HTTP on the loopback): time to the first rows of a newly opened
    /// page, time to fetch every window of the table (a scroll from top to bottom), memory of
    /// `jarvis web` per open page, and the delay from a change made outside to the page's
    /// live stream and its refreshed window.
    enum WebBench {
        static func run(_ options: BenchOptions) throws -> Section {
            let keys = options.size(100_000, quick: 5_000)
            let window = 200
            let folder = try Fixture.temporaryFolder("web")
            defer { try? FileManager.default.removeItem(at: folder) }
            try Fixture.write(try Fixture.plist(count: keys), into: folder)
            let agent = try AgentChild(serving: folder)
            defer { agent.stop() }
            let web = try ChildProcess(
                try ChildProcess.sibling("jarvis"), ["web", "--no-open", "--agent", agent.socketPath],
                environment: ["JARVIS_RUNTIME_DIR": agent.runtime.path])
            defer { web.stop() }
            let line = try web.value(after: "Jarvis web inspector: ")
            guard let address = line.split(separator: " ").last, let url = URL(string: String(address)),
                let port = url.port, let query = url.query
            else { throw BenchFailure("jarvis web printed no address: \(line)") }
            let http = BenchHTTP(port: UInt16(port), root: url.path.hasSuffix("/") ? url.path : url.path + "/")
            let exchange = try http.send("GET", "?\(query)")
            guard let cookie = exchange.header("set-cookie")?.split(separator: ";").first.map(String.init) else {
                throw BenchFailure("the secret was not traded for a cookie (\(exchange.status))")
            }
            http.cookie = cookie

            // Pages on one agent share its listing: the memory a page adds is measured from the
            // second page on (the first loads the agent's keys).
            var before: Int?
            var first: [Double] = []
            var scroll: [Double] = []
            var pages: [String] = []
            for _ in 0..<options.runCount {
                let start = ContinuousClock.now
                let opened = try http.json("POST", "api/pages", body: "{}")
                guard let page = opened["page"]?.stringValue else { throw BenchFailure("no page was opened") }
                pages.append(page)
                // The page loads the agent's keys as it opens: wait until they are all there.
                var rows = try http.json("GET", "api/pages/\(page)/rows?from=0&count=\(window)")
                while rows["total"]?.int64Value != Int64(keys), ContinuousClock.now - start < .seconds(120) {
                    Thread.sleep(forTimeInterval: 0.01)
                    rows = try http.json("GET", "api/pages/\(page)/rows?from=0&count=\(window)")
                }
                guard rows["total"]?.int64Value == Int64(keys) else {
                    throw BenchFailure("the table has \(rows["total"].map { "\($0)" } ?? "no") rows, not \(keys)")
                }
                first.append(milliseconds(since: start))
                let scrolled = ContinuousClock.now
                var from = 0
                while from < keys {
                    _ = try http.json("GET", "api/pages/\(page)/rows?from=\(from)&count=\(window)")
                    from += window
                }
                scroll.append(milliseconds(since: scrolled))
                if before == nil { before = ProcFS.memory("VmRSS", pid: web.pid) }
            }
            let after = ProcFS.memory("VmRSS", pid: web.pid)

            // A change made by another client reaches the page's stream, then its window. The
            // last page opened: an earlier one may have idled out while the others scrolled.
            guard let page = pages.last else { throw BenchFailure("no page was opened") }
            let stream = try http.open("api/pages/\(page)/events")
            defer { stream.close() }
            _ = try http.nextEvent(stream)
            let client = try agent.connect()
            defer { client.close() }
            var delays: [Double] = []
            let key = String(format: "bench.key.%06d", 0)
            for run in 0..<max(3, options.runCount) {
                let value = "changed outside, run \(run)"
                let start = ContinuousClock.now
                _ = try client.call(
                    Wire.SetParams(Wire.Place(container: Fixture.suite, key: key), value: .string(value)),
                    expecting: Wire.ItemResult.self)
                var seen = false
                while !seen {
                    _ = try http.nextEvent(stream)
                    let rows = try http.json("GET", "api/pages/\(page)/rows?from=0&count=\(window)")
                    seen = rows["rows"]?.arrayValue?.contains { $0["preview"]?.stringValue == value } ?? false
                }
                delays.append(milliseconds(since: start))
            }

            let browser = try browserFigures(agent: agent, keys: keys, runs: options.runCount)

            var section = Section(name: "web", title: "jarvis web over \(keys) keys, through the agent, as its page asks")
            if let browser {
                section.add("browser: first rows drawn (open the address, trade the secret, draw)", unit: "ms", samples: browser.first)
                section.add(
                    "browser: scroll through every key, \(browser.screens) screens one at a time, each drawn", unit: "ms",
                    samples: browser.scroll)
                section.add("browser: outside change (jarvis set) to the row drawn", unit: "ms", samples: browser.change)
                section.add("browser: the same, from when jarvis set returned", unit: "ms", samples: browser.stored)
                section.add("browser: memory of jarvis web per page after the first", unit: "MB", samples: [browser.memory])
                // The target is the page's part: from the moment the change is stored (the set
                // returned) to the row drawn. The set's own write is the storage's cost, printed
                // above and in docs/BENCHMARKS.md beside it.
                section.atMost(
                    "browser: a stored change to the row drawn (median)", Stats.median(browser.stored), 300, unit: " ms")
                section.atMost("browser: memory a second page on the agent adds", browser.memory, 40, unit: " MB")
            } else {
                section.notes.append(
                    "browser figures skipped: no Chromium (CHROMIUM, else /usr/bin/chromium) or no Python with Playwright (JARVIS_WEB_PYTHON, else .build/web-venv/bin/python)")
            }
            section.add("HTTP: first rows of a new page (connect, load, first window of \(window))", unit: "ms", samples: first)
            section.add("HTTP: every window of \(window) rows, top to bottom", unit: "ms", samples: scroll)
            if let before, let after, pages.count > 1 {
                section.add(
                    "HTTP: memory of jarvis web per page after the first", unit: "MB",
                    samples: [Double(max(0, after - before)) / Double(pages.count - 1) / 1_048_576])
            }
            section.add("HTTP: outside change to the page's refreshed window", unit: "ms", samples: delays)
            section.notes.append("HTTP: the requests the page sends, without a browser: the server's part")
            return section
        }

        /// What a real Chromium measures (Tests/WebClient/web_bench.py, Playwright for Python),
        /// with a `jarvis web` of its own (the secret works once); nil without a browser.
        private static func browserFigures(agent: AgentChild, keys: Int, runs: Int) throws -> (
            first: [Double], scroll: [Double], screens: Int, change: [Double], stored: [Double], memory: Double
        )? {
            let environment = ProcessInfo.processInfo.environment
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let python = environment["JARVIS_WEB_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
                ?? root.appendingPathComponent(".build/web-venv/bin/python").path
            let chromium = environment["CHROMIUM"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/bin/chromium"
            let script = root.appendingPathComponent("Tests/WebClient/web_bench.py").path
            guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.isExecutableFile(atPath: chromium),
                FileManager.default.fileExists(atPath: script)
            else { return nil }
            let jarvis = try ChildProcess.sibling("jarvis")
            let web = try ChildProcess(
                jarvis, ["web", "--no-open", "--agent", agent.socketPath], environment: ["JARVIS_RUNTIME_DIR": agent.runtime.path])
            defer { web.stop() }
            let line = try web.value(after: "Jarvis web inspector: ")
            guard let address = line.split(separator: " ").last else { throw BenchFailure("jarvis web printed no address: \(line)") }
            let bench = Process()
            bench.executableURL = URL(fileURLWithPath: python)
            bench.arguments = [
                script, String(address), String(web.pid), String(keys), Fixture.suite, String(format: "bench.key.%06d", 0), String(max(2, runs)),
            ]
            var childEnvironment = environment
            childEnvironment["JARVIS_BIN"] = jarvis.path
            childEnvironment["JARVIS_RUNTIME_DIR"] = agent.runtime.path
            childEnvironment["JARVIS_AGENT"] = agent.socketPath
            childEnvironment["CHROMIUM"] = chromium
            bench.environment = childEnvironment
            let output = Pipe()
            bench.standardOutput = output
            try bench.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            bench.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            guard bench.terminationStatus == 0, let last = text.split(separator: "\n").last,
                let json = try? JSONParser.parse(Array(last.utf8))
            else { throw BenchFailure("the browser benchmark failed (\(bench.terminationStatus)): \(text)") }
            func samples(_ name: String) -> [Double] { json[name]?.arrayValue?.compactMap(\.doubleValue) ?? [] }
            return (
                samples("first_rows_ms"), samples("scroll_ms"), json["screens"]?.int64Value.map { Int($0) } ?? 0,
                samples("change_ms"), samples("stored_ms"), json["memory_per_page_mb"]?.doubleValue ?? 0
            )
        }

        private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
            (ContinuousClock.now - start).inMilliseconds
        }
    }

    /// The few HTTP requests the benchmark sends, as the page's browser would (Host, Origin,
    /// the session cookie).
    final class BenchHTTP {
        let port: UInt16
        /// The page's path (`/<random>/`); every request's path is relative to it.
        let root: String
        var cookie: String?

        init(port: UInt16, root: String) {
            self.port = port
            self.root = root
        }

        struct Answer {
            var status: Int
            var headers: [(String, String)]
            var body: [UInt8]
            func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
        }

        func open(_ path: String, method: String = "GET", body: String = "") throws -> Socket {
            let socket = try Socket.connect(to: .tcp(host: "127.0.0.1", port: port), timeout: .seconds(10))
            var head = "\(method) \(root)\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
            if let cookie { head += "Cookie: \(cookie)\r\n" }
            head += "Content-Length: \(body.utf8.count)\r\nContent-Type: application/json\r\n\r\n" + body
            try socket.writeAll(Array(head.utf8), timeout: .seconds(10))
            return socket
        }

        func send(_ method: String, _ path: String, body: String = "") throws -> Answer {
            let socket = try open(path, method: method, body: body)
            defer { socket.close() }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try chunk.withUnsafeMutableBytes { raw in try socket.read(into: raw) }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            guard let split = Self.find([13, 10, 13, 10], in: bytes, from: 0) else {
                throw BenchFailure("a malformed answer from jarvis web")
            }
            let head = String(decoding: bytes[..<split], as: UTF8.self).split(separator: "\r\n")
            let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
            let headers = head.dropFirst().compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return Answer(status: status, headers: headers, body: Array(bytes[(split + 4)...]))
        }

        func json(_ method: String, _ path: String, body: String = "") throws -> JSONValue {
            let answer = try send(method, path, body: body)
            guard answer.status == 200 else {
                throw BenchFailure("\(method) \(path): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            }
            return try JSONParser.parse(answer.body)
        }

        private var pending: [UInt8] = []

        /// Reads the stream until the end of its next event (the head first time round).
        func nextEvent(_ socket: Socket) throws -> String {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                if let end = Self.find([10, 10], in: pending, from: 0) {
                    let event = String(decoding: pending[..<end], as: UTF8.self)
                    pending.removeFirst(end + 2)
                    if event.hasPrefix("event:") || event.contains("\nevent:") { return event }
                    continue
                }
                guard try socket.wait(for: Int16(POLLIN), until: .now + .seconds(30)) else {
                    throw BenchFailure("the live stream sent nothing for 30 seconds")
                }
                let count = try chunk.withUnsafeMutableBytes { raw in try socket.read(into: raw) }
                guard count > 0 else { throw BenchFailure("the live stream ended") }
                pending += chunk[0..<count]
                // The response head ends with a blank line of CRLFs; events with LF LF.
                if let head = Self.find([13, 10, 13, 10], in: pending, from: 0) { pending.removeFirst(head + 4) }
            }
        }

        static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
            guard bytes.count >= needle.count + start else { return nil }
            for index in start...(bytes.count - needle.count) where Array(bytes[index..<(index + needle.count)]) == needle {
                return index
            }
            return nil
        }
    }
#endif
