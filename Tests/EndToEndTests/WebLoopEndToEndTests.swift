import Foundation
import JarvisCore
import JarvisTestSupport
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `jarvis web` on the transport's loop and work pool: connections dripping large
/// bodies cost CPU in proportion to their bytes, and page requests waiting on a stopped agent
/// hold a few pool threads, not a thread each.
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "needs /proc (Linux): it counts the process's threads there"))
final class WebLoopEndToEndTests {
    let sandbox: Sandbox
    let suites: URL

    init() throws {
        sandbox = try Sandbox()
        suites = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("app", in: suites, ["name": "Ada"])
    }

    /// A running `jarvis web --no-open`, with the address it printed.
    final class Web {
        let process = Process()
        let port: UInt16
        let root: String
        let secret: String

        init(_ sandbox: Sandbox, agent: String) throws {
            process.executableURL = try Binaries.url("jarvis")
            process.arguments = ["--agent", agent, "web", "--no-open", "--port", "0"]
            process.environment = sandbox.environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while !text.contains("\n"), Date() < deadline {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            guard let url = text.split(separator: " ").last(where: { $0.hasPrefix("http://") }),
                let components = URLComponents(string: String(url.split(separator: "\n")[0])),
                let port = components.port, let secret = components.queryItems?.first(where: { $0.name == "k" })?.value
            else { throw HarnessError("jarvis web printed no address: \(text)") }
            self.port = UInt16(port)
            root = components.path
            self.secret = secret
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }

        var pid: Int32 { process.processIdentifier }
        var endpoint: Endpoint { .tcp(host: "127.0.0.1", port: port) }

        /// The CPU time the server used so far, in seconds (user and system, from /proc).
        var cpuSeconds: Double {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        var threads: Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1
        }

        /// Sends one request and reads the whole answer (the server closes after it).
        func exchange(_ request: String, timeout: Duration = .seconds(20)) throws -> String {
            let socket = try Socket.connect(to: endpoint, timeout: .seconds(5))
            defer { socket.close() }
            try socket.writeAll(Array(request.utf8), timeout: .seconds(5))
            return try Self.readAll(socket, timeout: timeout)
        }

        static func readAll(_ socket: Socket, timeout: Duration) throws -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let deadline = ContinuousClock.now + timeout
            while try socket.wait(for: Int16(POLLIN), until: deadline) {
                let count = (try? chunk.withUnsafeMutableBytes { try socket.read(into: $0) }) ?? 0
                if count == 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Trades the secret for the session cookie.
        func cookie() throws -> String {
            let answer = try exchange("GET \(root)?k=\(secret) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            guard let line = answer.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("set-cookie:") }),
                let value = line.dropFirst("set-cookie:".count).split(separator: ";").first
            else { throw HarnessError("no cookie in: \(answer.prefix(300))") }
            return value.trimmingCharacters(in: .whitespaces)
        }

        func openPage(cookie: String) -> String {
            "POST \(root)api/pages HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                + "Cookie: \(cookie)\r\nContent-Length: 0\r\n\r\n"
        }
    }

    /// A POST of one intent of a page.
    private func intent(_ web: Web, cookie: String, page: String, _ body: String) -> String {
        "POST \(web.root)api/pages/\(page)/intent HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n"
            + "Origin: http://127.0.0.1:\(web.port)\r\nCookie: \(cookie)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// The page id in an answer to `POST api/pages`.
    private func pageID(_ answer: String) throws -> String {
        let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        guard let id = try JSONParser.parse(Array(body.utf8))["page"]?.stringValue else {
            throw HarnessError("no page in: \(answer.prefix(300))")
        }
        return id
    }

    /// Two pages on an agent whose desktop keyring never answers: the pages open with the
    /// keyring named as a problem and every other scanner's keys (the containers of every
    /// scanner, asked at once, timed out whole, so no page opened). One page's Undo picks the
    /// journal's newest change that page made, a keyring key's from an earlier run, and is
    /// refused at once, without asking the keyring (a secret's values are never kept across a
    /// restart, whatever the file says); the other page edits and saves a key, opens it with
    /// its history, reverts that change and reads rows, each answered.
    @Test func pagesOnAnAgentWithAHungKeyringEditAndRevertTheirOtherKeys() throws {
        let bus = try SilentListener(path: sandbox.root.appendingPathComponent("bus").path)
        sandbox.environmentOverrides["DBUS_SESSION_BUS_ADDRESS"] = bus.busAddress
        // As an earlier run of the agent left it, the file claiming a value for a secret.
        let journal = [
            #"{"jarvisJournal":1}"#,
            #"{"id":1,"time":"2026-01-01T00:00:00Z","action":"set","scanner":"secrets","container":"github.com","key":"ada","after":{"type":"string","value":"x"},"afterRevision":"2222222222222222","transport":"unix","client":"jarvis-web","place":"\#(Sandbox.secretServicePlace)"}"#,
        ]
        try sandbox.plantJournal(serving: ["--secret-service", "--defaults-dir", suites.path], lines: journal)

        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "10"])
        let web = try Web(sandbox, agent: String(agent.pid))
        let cookie = try web.cookie()
        let opened = try web.exchange(web.openPage(cookie: cookie), timeout: .seconds(90))
        #expect(opened.contains(#""preview":"Ada""#) || opened.contains(#""count":1"#), "\(opened.suffix(2000))")
        #expect(opened.contains("(scanner secrets) is not answering"), "\(opened.suffix(2000))")
        let one = try pageID(opened)
        let two = try pageID(try web.exchange(web.openPage(cookie: cookie), timeout: .seconds(90)))

        let undone = try web.exchange(intent(web, cookie: cookie, page: one, #"{"intent":"undo"}"#), timeout: .seconds(30))
        #expect(undone.hasPrefix("HTTP/1.1 200"), "\(undone.prefix(300))")
        #expect(!undone.contains(#"\"x\""#) && !undone.contains("«x»"), "\(undone.suffix(1500))")
        let target = #"{"s":"defaults","c":"app","k":"name","p":""}"#
        let others = [
            ("edit", intent(web, cookie: cookie, page: two, #"{"intent":"edit","target":\#(target),"zone":"UTC"}"#)),
            ("save", intent(web, cookie: cookie, page: two, #"{"intent":"save","text":"Grace"}"#)),
            ("open", intent(web, cookie: cookie, page: two, #"{"intent":"open","target":\#(target)}"#)),
            ("revert", intent(web, cookie: cookie, page: two, #"{"intent":"revert","id":2}"#)),
            (
                "rows",
                "GET \(web.root)api/pages/\(two)/rows?from=0&count=50 HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nCookie: \(cookie)\r\n\r\n"
            ),
        ]
        var answers: [String: String] = [:]
        for (name, request) in others {
            let answer = try web.exchange(request, timeout: .seconds(30))
            answers[name] = answer
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(name): \(answer.prefix(300))")
        }
        #expect(answers["save"]?.contains(#""offer":"undo""#) == true, "\(answers["save"]?.suffix(1500) ?? "")")
        #expect(answers["open"]?.contains(#""timeline":{"entries":[{"id":2"#) == true, "\(answers["open"]?.suffix(2500) ?? "")")
        #expect(answers["revert"]?.contains("name back to Ada") == true, "\(answers["revert"]?.suffix(1500) ?? "")")
        #expect(agent.isAlive)
    }

    private func startAgent() throws -> AgentProcess {
        try AgentProcess(sandbox, ["--defaults-dir", suites.path])
    }

    /// Fifteen connections send a 1 MiB body a kilobyte at a time: the server's CPU stays in
    /// proportion to the 15 MiB received (the old reader copied everything a connection had
    /// sent on every read: quadratic, most of a core).
    @Test func connectionsDrippingLargeBodiesCostCPUInProportionToTheirBytes() throws {
        let agent = try startAgent()
        let web = try Web(sandbox, agent: String(agent.pid))
        let before = web.cpuSeconds
        let body = 1 << 20
        var sockets: [Socket] = []
        for _ in 0..<15 {
            let socket = try Socket.connect(to: web.endpoint, timeout: .seconds(5))
            try socket.writeAll(
                Array("POST \(web.root)api/pages HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nContent-Length: \(body)\r\n\r\n".utf8),
                timeout: .seconds(5))
            sockets.append(socket)
        }
        let piece = [UInt8](repeating: 0x61, count: 1024)
        let started = ContinuousClock.now
        for _ in 0..<(body / piece.count) {
            for socket in sockets { try? socket.writeAll(piece, timeout: .seconds(5)) }
            // A drip: each read of the server finds about one piece.
            usleep(500)
        }
        let dripping = (ContinuousClock.now - started) / .seconds(1)
        for socket in sockets {
            _ = try? Web.readAll(socket, timeout: .seconds(10))
            socket.close()
        }
        let used = web.cpuSeconds - before
        #expect(
            used >= 0 && used < max(0.5, dripping / 4),
            "jarvis web used \(used) s of CPU while 15 MiB were dripped in 1 KiB pieces for \(dripping) s")
        // The owner's page still opens.
        let cookie = try web.cookie()
        #expect(try web.exchange(web.openPage(cookie: cookie)).hasPrefix("HTTP/1.1 200"))
    }

    /// A `HEAD` request is answered with the head a `GET` would have, and no body.
    @Test func aHeadRequestGetsTheHeadAlone() throws {
        let agent = try startAgent()
        let web = try Web(sandbox, agent: String(agent.pid))
        let cookie = try web.cookie()
        let get = try web.exchange("GET \(web.root)app.js HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nCookie: \(cookie)\r\n\r\n")
        let head = try web.exchange("HEAD \(web.root)app.js HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nCookie: \(cookie)\r\n\r\n")
        let getHead = get.components(separatedBy: "\r\n\r\n").first ?? ""
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head == getHead + "\r\n\r\n", "HEAD answered \(head.utf8.count) bytes; GET's head is \(getHead.utf8.count)")
        let refused = try web.exchange("HEAD \(web.root)app.js HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\r\n")
        #expect(refused.hasPrefix("HTTP/1.1 403") && refused.hasSuffix("\r\n\r\n"), "\(refused)")
    }

    /// Forty pages opened while their agent is stopped (`SIGSTOP`: it accepts and never
    /// answers) wait on the server's work pool: a few threads, not one per request.
    @Test func fortyPagesWaitingOnAStoppedAgentAddAFewThreads() throws {
        let agent = try startAgent()
        let web = try Web(sandbox, agent: String(agent.pid))
        let cookie = try web.cookie()
        #expect(try web.exchange(web.openPage(cookie: cookie)).hasPrefix("HTTP/1.1 200"))
        let idle = web.threads
        kill(agent.pid, SIGSTOP)
        defer { kill(agent.pid, SIGCONT) }
        var waiting: [Socket] = []
        defer { for socket in waiting { socket.close() } }
        for _ in 0..<40 {
            let socket = try Socket.connect(to: web.endpoint, timeout: .seconds(5))
            try socket.writeAll(Array(web.openPage(cookie: cookie).utf8), timeout: .seconds(5))
            waiting.append(socket)
        }
        // Sampled while they wait: each took its place (32 at once are served, the rest
        // refused with 503), and the pool's threads hold what is stuck.
        var most = idle
        let until = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < until {
            most = max(most, web.threads)
            Thread.sleep(forTimeInterval: 0.02)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pool = min(cores, 8) + 4
        #expect(most <= idle + pool, "threads: \(idle) idle, \(most) with 40 page requests waiting")
        // The loop still answers at once what needs no agent.
        #expect(try web.exchange("GET \(web.root)app.js HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nCookie: \(cookie)\r\n\r\n").hasPrefix("HTTP/1.1 200"))
    }
}
