import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 47 item 2 against the real agent: the output a client has not read is bounded per
/// client and over time (a soft limit held for some seconds, as Redis bounds a client's output
/// buffer), never by a budget other clients spent first. Honest clients that read late all get
/// their whole answers; clients that never read are dropped after the soft-limit time and hold
/// the agent's memory bounded meanwhile.
@Suite(.serialized) struct FairOutputEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        sandbox.environmentOverrides["MALLOC_MMAP_THRESHOLD_"] = "131072"
        folder = sandbox.root.appendingPathComponent("prefs")
    }

    /// The answer a raw client read on one connection, or why it ended early.
    struct Reading {
        let socket: Socket
        var framer = LineFramerBox()
        var line: [UInt8]?
        var ended = false
    }

    @Test func sixtyFourClientsThatReadLateAllGetTheirWholeListing() throws {
        var values: [String: Any] = [:]
        for index in 0..<10_000 { values["setting_\(index)"] = "value \(index) of a suite many clients list at once" }
        try sandbox.writeSuite("com.example.wide", in: folder, values)
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let request = #"{"jsonrpc":"2.0","id":1,"method":"list","params":{"container":"com.example.wide"}}"#
        // The failure was one client in three runs of four: several runs catch it.
        for run in 1...4 {
            var readings = try (0..<64).map { _ in Reading(socket: try agent.socket()) }
            for reading in readings { reading.socket.send(request + "\n") }
            // Every client starts reading only once the agent has filled what the others'
            // sockets take (it stops growing), and then reads slowly: a few KiB a turn.
            _ = try ListMemoryEndToEndTests.settledMemory(of: agent)
            try Self.readSlowly(&readings, until: .now + .seconds(240))
            for (index, reading) in readings.enumerated() {
                let line = try #require(
                    reading.line, "run \(run): client \(index) got no whole answer (the agent closed it)")
                let answer = try JSONParser.parse(line)
                #expect(
                    answer["result"]?["items"]?.arrayValue?.count == 10_000,
                    "run \(run): client \(index): \(line.prefix(300))")
                reading.socket.close()
            }
        }
        #expect(agent.answersANewClient())
    }

    @Test func sixtyFourJarvisClientsListingAtOnceAllGetTheirWholeListing() throws {
        var values: [String: Any] = [:]
        for index in 0..<10_000 { values["setting_\(index)"] = "value \(index) of a suite many clients list at once" }
        try sandbox.writeSuite("com.example.wide", in: folder, values)
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        for run in 1...4 {
            let results = Locked<[String]>([])
            let threads = (0..<64).map { index in
                Thread {
                    do {
                        let client = try JarvisClient(
                            endpoint: agent.unix, clientName: "c\(index)", timeout: .seconds(120))
                        let listing = try client.list(container: "com.example.wide")
                        results.withLock {
                            $0.append(listing.items.count == 10_000 ? "ok" : "short \(listing.items.count)")
                        }
                        client.close()
                    } catch {
                        results.withLock { $0.append("\(error)") }
                    }
                }
            }
            threads.forEach { $0.start() }
            let deadline = ContinuousClock.now + .seconds(240)
            while results.current.count < 64, ContinuousClock.now < deadline { usleep(20_000) }
            let failed = results.current.filter { $0 != "ok" }
            #expect(results.current.count == 64 && failed.isEmpty, "run \(run): \(failed)")
        }
    }

    /// Ten clients ask for the listing of a 200,000-key JSON file (scaled down from the issue's
    /// listing of 11 MB only in how long they wait) and never read: the agent's peak stays
    /// within one listing's cost and its output bounds, another client's `get` is answered
    /// meanwhile, and each silent client is dropped once it read nothing for the soft-limit
    /// time (`--output-timeout`), freeing what its listing held.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/proc/self/status"),
            "needs /proc (Linux): it reads peak memory there"))
    func clientsThatNeverReadALargeListingAreDroppedAfterTheSoftLimitTime() throws {
        var text = "{\n"
        for index in 0..<200_000 {
            text += #"  "setting_\#(index)": "value \#(index) of the large configuration file",\#n"#
        }
        text += #"  "last": true\#n}\#n"#
        let files = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: files.appendingPathComponent("large.json"))
        let request = #"{"jsonrpc":"2.0","id":1,"method":"list","params":{"scanner":"files","container":"large.json"}}"#
        // What parsing the file and answering its listing once cost, measured on an agent of
        // its own: one client reads the whole listing.
        let first = try AgentProcess(sandbox, ["--files", files.path])
        let once: (peak: Int, resident: Int)
        do {
            let reader = try first.socket()
            var lines = LineReader(reader)
            reader.send(request + "\n")
            #expect((try lines.next(timeout: .seconds(120))?.count ?? 0) > text.utf8.count)
            once = try ListMemoryEndToEndTests.settledMemory(of: first)
            reader.close()
            first.process.terminate()
            first.process.waitUntilExit()
        }

        // A fresh agent, whose first clients are the silent ones, all at once: the file is
        // parsed for them together (once: each of them parsing its own copy took a debug agent
        // from 103 to 228 MiB, the copies held while the clients did not read).
        let agent = try AgentProcess(sandbox, ["--files", files.path, "--output-timeout", "3"])
        let reader = try agent.socket()
        var answers = LineReader(reader)
        let started = ContinuousClock.now
        let silent = try (0..<10).map { _ in try agent.socket() }
        defer { silent.forEach { $0.close() } }
        for socket in silent { socket.send(request + "\n") }
        for socket in silent {
            #expect(try socket.wait(for: Int16(POLLIN), until: .now + .seconds(60)), "a client got no answer")
        }
        // Another client is answered while they hold their listings.
        reader.send(
            #"{"jsonrpc":"2.0","id":2,"method":"get","params":{"scanner":"files","container":"large.json","key":"last"}}"#
                + "\n")
        #expect(try answers.nextJSON()?["result"]?["item"]?["value"] == .bool(true))
        // Each silent client is dropped (its socket hangs up without its reading a byte), no
        // sooner than the soft-limit time; reading then, it finds its listing cut short.
        for (index, socket) in silent.enumerated() {
            #expect(
                try socket.wait(for: Int16(POLLHUP), until: .now + .seconds(120)),
                "silent client \(index) was never dropped")
        }
        #expect(ContinuousClock.now - started >= .seconds(3))
        for (index, socket) in silent.enumerated() {
            var lines = LineReader(socket)
            let line = try lines.next(timeout: .seconds(20))
            #expect(
                line == nil,
                "silent client \(index) got its whole listing (\(line?.count ?? 0) bytes) though it was dropped")
        }
        let after = try ListMemoryEndToEndTests.settledMemory(of: agent)
        let bound =
            once.peak + ListMemoryEndToEndTests.budget + 10 * ListMemoryEndToEndTests.allowance
            + ListMemoryEndToEndTests.margin
        #expect(
            after.peak <= bound,
            "10 silent clients took the agent to \(after.peak >> 20) MiB (bound \(bound >> 20) MiB; \(once.peak >> 20) MiB after one full listing)"
        )
        #expect(agent.answersANewClient())
    }

    /// Reads every connection a little at a time, round after round, until each has a whole
    /// line or was closed by the agent.
    static func readSlowly(_ readings: inout [Reading], until deadline: ContinuousClock.Instant) throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while readings.contains(where: { $0.line == nil && !$0.ended }) {
            guard ContinuousClock.now < deadline else { throw HarnessError("the listings did not arrive in time") }
            for index in readings.indices where readings[index].line == nil && !readings[index].ended {
                let socket = readings[index].socket
                guard try socket.wait(for: Int16(POLLIN), until: .now) else { continue }
                let count: Int
                do {
                    count = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
                } catch let error as SocketError where error.isWouldBlock {
                    continue
                } catch {
                    readings[index].ended = true
                    continue
                }
                if count == 0 {
                    readings[index].ended = true
                    continue
                }
                readings[index].framer.append(chunk[..<count])
                readings[index].line = readings[index].framer.next()
            }
            usleep(1000)
        }
    }
}
