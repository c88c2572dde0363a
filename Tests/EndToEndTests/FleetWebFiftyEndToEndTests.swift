import Foundation
import JarvisCore
import JarvisTestSupport
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// "Compare on all agents" in `jarvis web` with fifty running agents, as on a CI machine
/// with many simulators (issue 36): every line comes within the fan-out's bound, a stopped
/// agent is `no answer` and delays no other line, "Set on all" writes every running agent
/// and never the stopped one, and the poll of a live page keeps the server's threads and
/// descriptors bounded read after read.
extension FleetWebEndToEndTests {
    /// What `jarvis web` holds, from /proc: its threads and its open descriptors.
    struct Held: Sendable, CustomStringConvertible {
        var threads: Int
        var descriptors: Int

        init(_ pid: Int32) {
            threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1
            descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        }

        var description: String { "\(threads) threads, \(descriptors) descriptors" }
    }

    @Test func fiftyAgentsAreComparedWrittenAndPolledWithinBounds() throws {
        let count = 50
        let names = (0..<count).map { "fifty-" + ($0 < 10 ? "0" : "") + String($0) }
        var agents: [AgentProcess] = []
        for index in 0..<count { agents.append(try agent(names[index], port: index)) }
        let stuckIndex = 37
        let stuck = agents[stuckIndex]
        let live = (1..<count).filter { $0 != stuckIndex }
        kill(stuck.pid, SIGSTOP)
        defer { kill(stuck.pid, SIGCONT) }

        let page = try open(agents[0])
        let pid = page.web.pid
        // The page's live stream is open (and read, so the server never drops it): the
        // comparison is read again on the poll.
        let events = try Socket.connect(to: page.web.endpoint, timeout: .seconds(5))
        try events.writeAll(
            Array(
                ("GET \(page.web.root)api/pages/\(page.id)/events HTTP/1.1\r\nHost: 127.0.0.1:\(page.web.port)\r\n"
                    + "Origin: http://127.0.0.1:\(page.web.port)\r\nCookie: \(page.cookie)\r\n\r\n").utf8),
            timeout: .seconds(5))
        let stop = Locked(false)
        let streamEnded = Locked(false)
        let most = Locked(Held(pid))
        let stopped = DispatchGroup()
        stopped.enter()
        Thread.detachNewThread {
            defer { stopped.leave() }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while !stop.current {
                let held = Held(pid)
                most.withLock { $0 = Held(max: $0, held) }
                guard (try? events.wait(for: Int16(POLLIN), until: .now + .milliseconds(20))) == true else { continue }
                if ((try? chunk.withUnsafeMutableBytes { try events.read(into: $0) }) ?? 0) == 0 {
                    streamEnded.withLock { $0 = true }
                    return
                }
            }
        }
        defer {
            stop.withLock { $0 = true }
            stopped.wait()
            events.close()
        }
        try page.intent(["intent": "check"])
        let idle = Held(pid)
        most.withLock { $0 = idle }

        // Every line comes, each with its value; the stopped agent is still being waited for
        // when all the others are there.
        let started = Date()
        try page.intent(["intent": "fleetKey", "target": Self.port])
        var view = try page.view("the live agents' lines") { view in
            live.allSatisfy { Self.status(view, names[$0]) == "ok" }
        }
        let othersCame = Date().timeIntervalSince(started)
        let fleet = JSONWriter.string(view["fleet"] ?? .null)
        #expect(Self.status(view, names[stuckIndex]) == "reading", "\(fleet)")
        #expect(view["fleet"]?["lines"]?.arrayValue?.count == count)
        #expect(Self.line(view, names[0])?["own"] == true && Self.line(view, names[0])?["value"] == "0")
        for index in live {
            let line = Self.line(view, names[index])
            #expect(line?["value"] == .string(String(index)) && line?["differs"] == true, "\(names[index]): \(fleet)")
        }
        view = try page.view("the stopped agent's no answer") { Self.status($0, names[stuckIndex]) == "no answer" }
        let stuckCame = Date().timeIntervalSince(started)
        #expect(othersCame < stuckCame)
        // The bound (5 s) and a loaded machine's slack.
        #expect(stuckCame < 12, "no answer after \(stuckCame) s")

        // The poll reads every agent again, one read at a time: a change made elsewhere shows
        // on its line; between reads the server is back to what it held before the comparison.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pool = min(cores, 8) + 4
        for round in 1...3 {
            let value = String(1000 + round)
            let set = try sandbox.jarvis("--agent", String(agents[1].pid), "set", "files:app.json", "port", value)
            #expect(set.status == 0, "\(set.stderr)")
            _ = try page.view("poll \(round)") { Self.line($0, names[1])?["value"] == .string(value) }
            // Threads: the server's work pool starts its threads as work comes (and keeps them a
            // while); descriptors: the stopped agent's connection while a read waits for it.
            let quiet = eventually(timeout: .seconds(30)) {
                let held = Held(pid)
                return held.threads <= idle.threads + pool && held.descriptors <= idle.descriptors + 2
            }
            #expect(quiet, "after poll \(round): \(Held(pid)); before the comparison: \(idle)")
        }
        #expect(!streamEnded.current, "the server closed the page's live stream")
        // At most one read at a time: a thread and a connection per agent and the read's own
        // thread, beside the work pool's threads and a few of Dispatch's for the page's timers.
        let peak = most.current
        #expect(peak.threads <= idle.threads + count + 1 + pool + 4, "peak \(peak); idle \(idle)")
        #expect(peak.descriptors <= idle.descriptors + count + 4, "peak \(peak); idle \(idle)")

        // "Set on all": every running agent written and said so; the stopped one no answer.
        let setStarted = Date()
        view = try page.intent(["intent": "fleetSetAll"])
        let setTook = Date().timeIntervalSince(setStarted)
        let written = JSONWriter.string(view["fleet"] ?? .null)
        #expect(view["fleet"]?["results"]?.arrayValue?.count == count - 1, "\(written)")
        #expect(Self.line(view, names[1], results: true)?["value"] == "1003 → 0", "\(written)")
        for index in live {
            #expect(Self.status(view, names[index], results: true) == "changed", "\(names[index]): \(written)")
        }
        let noAnswer = Self.line(view, names[stuckIndex], results: true)
        #expect(noAnswer?["status"] == "no answer", "\(written)")
        // Its hello had no answer, so the runner knows no write was sent to it and says so.
        let reason = noAnswer?["reason"]?.stringValue ?? ""
        #expect(reason.contains("no answer within 5 s") && reason.contains("no write was sent to it"), "\(written)")
        #expect(!reason.contains("may still apply"), "\(reason)")
        #expect(view["message"]?["kind"] == "error")
        #expect(setTook < 12, "Set on all took \(setTook) s")
        for index in live { #expect(try stored(names[index]) == .integer(0), "\(names[index])") }
        #expect(try stored(names[stuckIndex]) == .integer(stuckIndex))

        // Once it runs again, the stopped agent answers and keeps its value: it had not
        // answered its hello, so no write was ever sent to it (and none was: its value had
        // not been read, so the write's guard had nothing to send it with).
        kill(stuck.pid, SIGCONT)
        #expect(stuck.answersANewClient())
        view = try page.view("the resumed agent read again") {
            Self.line($0, names[stuckIndex])?["value"] == .string(String(stuckIndex))
        }
        #expect(Self.line(view, names[stuckIndex])?["differs"] == true)
        for index in live { #expect(Self.line(view, names[index])?["value"] == "0", "\(names[index])") }
        #expect(try stored(names[stuckIndex]) == .integer(stuckIndex))
    }
}

extension FleetWebEndToEndTests.Held {
    /// The larger of each count.
    init(max one: Self, _ other: Self) {
        self = one
        threads = Swift.max(one.threads, other.threads)
        descriptors = Swift.max(one.descriptors, other.descriptors)
    }
}
