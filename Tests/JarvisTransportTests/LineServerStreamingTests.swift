import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisTransport

/// Streamed lines, the shared output budget and the authentication deadline of `LineServer`.
@Suite struct LineServerStreamingTests {
    let folder: TemporaryFolder
    let events = Locked<[String]>([])

    init() throws {
        folder = try TemporaryFolder()
    }

    /// `stream N` answers with one line of N chunks of 64 KiB of `x`, made on demand; `auth`
    /// authenticates the connection; anything else is echoed.
    final class StreamSession: LineSession {
        let events: Locked<[String]>
        let progress: Locked<Progress>

        struct Progress {
            var produced = 0
            var received = 0
            /// The most bytes ever made ahead of what the client had read.
            var maxLead = 0
        }

        /// Where this connection's streamed lines are made, as the agent makes them.
        let lane: WorkLane
        /// Holds every `stuck` line's first step until opened.
        let gate: Gate?
        let stepTimeout: Duration

        init(
            events: Locked<[String]>, progress: Locked<Progress>, pool: WorkPool, gate: Gate? = nil,
            stepTimeout: Duration = .seconds(30)
        ) {
            self.events = events
            self.progress = progress
            self.gate = gate
            self.stepTimeout = stepTimeout
            lane = pool.lane()
        }

        /// A step that does not return until opened, as a keyring call that never answers.
        final class Gate: Sendable {
            private let open = Locked(false)
            let entered = Locked(0)

            func wait() {
                entered.withLock { $0 += 1 }
                while !open.current { Thread.sleep(forTimeInterval: 0.005) }
            }

            func release() { open.withLock { $0 = true } }
        }

        /// `[` then one step that waits at the gate, then `]`.
        struct Stuck: LineProducer {
            let gate: Gate
            var started = false

            mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool {
                guard started else {
                    started = true
                    buffer += Array("[1".utf8)
                    return false
                }
                gate.wait()
                buffer += Array(",2]".utf8)
                return true
            }

            func rest(afterStepTimedOut timeout: Duration) -> [UInt8] {
                started ? Array(#","timed out"]"#.utf8) : Array(#"["timed out"]"#.utf8)
            }
        }

        struct Chunks: LineProducer {
            var left: Int
            let progress: Locked<Progress>
            /// CPU time each chunk costs to make, as encoding a listing's items does.
            var cost: Duration = .zero

            mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool {
                let busyUntil = ContinuousClock.now + cost
                while ContinuousClock.now < busyUntil {}
                buffer += [UInt8](repeating: 0x78, count: 64 * 1024)
                left -= 1
                progress.withLock { progress in
                    progress.produced += 64 * 1024
                    progress.maxLead = max(progress.maxLead, progress.produced - progress.received)
                }
                return left == 0
            }

            func rest(afterStepTimedOut timeout: Duration) -> [UInt8] { Array("timed out".utf8) }
        }

        private func stream(_ producer: some LineProducer, on connection: LineConnection) {
            connection.send(producing: producer, on: lane, group: nil, stepTimeout: stepTimeout)
        }

        func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("stream ") {
                stream(Chunks(left: Int(text.dropFirst(7)) ?? 1, progress: progress), on: connection)
            } else if text.hasPrefix("costly ") {
                stream(
                    Chunks(left: Int(text.dropFirst(7)) ?? 1, progress: progress, cost: .milliseconds(1)),
                    on: connection)
            } else if text == "stuck", let gate {
                stream(Stuck(gate: gate), on: connection)
            } else if text == "auth" {
                connection.authenticated()
                connection.send(Array("ok".utf8))
            } else {
                connection.send(line)
            }
        }

        func lineTooLong(on connection: LineConnection) -> [UInt8]? { nil }

        func closed(_ connection: LineConnection) {
            let reason = connection.closeReason.map { "\($0)" } ?? "nil"
            events.withLock { $0.append("closed \(connection.id) \(reason)") }
        }
    }

    private func startServer(
        limits: LineServerLimits, progress: Locked<StreamSession.Progress>, gate: StreamSession.Gate? = nil,
        stepTimeout: Duration = .seconds(30)
    ) throws -> (LineServer, Endpoint) {
        let events = self.events
        let pool = WorkPool(threadLimit: 4, groupLimit: 4)
        let server = LineServer(
            endpoints: [.unix(path: folder.socketPath())], limits: limits, refusalLine: Array("busy".utf8)
        ) { _ in
            StreamSession(events: events, progress: progress, pool: pool, gate: gate, stepTimeout: stepTimeout)
        }
        try server.start()
        return (server, try #require(server.boundEndpoints.first))
    }

    @Test func aStreamedLineIsMadeOnlyAsFastAsTheClientReadsIt() throws {
        let progress = Locked(StreamSession.Progress())
        let (server, endpoint) = try startServer(limits: LineServerLimits(), progress: progress)
        defer { server.stop() }
        let socket = try Socket.connect(to: endpoint, timeout: .seconds(5))
        defer { socket.close() }
        let chunks = 256  // 16 MiB: far more than the socket buffers
        try socket.writeAll(Array("stream \(chunks)\n".utf8), timeout: .seconds(5))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var received = 0
        var sawNewline = false
        while !sawNewline {
            // Small reads, so the producer would run far ahead if nothing held it back.
            let count = try socket.read(into: buffer)
            guard count > 0 else { break }
            received += count
            sawNewline = buffer[count - 1] == 0x0A
            progress.withLock { $0.received = received }
        }
        #expect(received == chunks * 64 * 1024 + 1)
        // What was made ahead of the reader is bounded by the socket buffers and a chunk or
        // two, never the whole line.
        #expect(progress.current.maxLead < 4 << 20)
        // The server releases the last chunk's bytes from the budget after the socket took them,
        // which may be a moment after the client read them: wait for it.
        #expect(eventually { server.budget.queued == 0 })
        try socket.writeAll(Array("after\n".utf8), timeout: .seconds(5))
        let count = try socket.read(into: buffer)
        #expect(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self) == "after\n")
    }

    @Test func aClientReadingALongLineAsFastAsItCanDelaysNobodyElse() throws {
        let progress = Locked(StreamSession.Progress())
        let (server, endpoint) = try startServer(limits: LineServerLimits(), progress: progress)
        defer { server.stop() }
        // 32 MiB, each 64 KiB costing 1 ms to make, read as fast as a thread can, while
        // another client's echoes are counted: the loop makes one chunk per turn for the reader,
        // and answers the echo in between.
        let reader = try Socket.connect(to: endpoint, timeout: .seconds(5))
        defer { reader.close() }
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try other.send("ready")
        #expect(try other.receiveText() == "ready")
        try reader.writeAll(Array("costly 512\n".utf8), timeout: .seconds(5))
        let finished = Locked<Int?>(nil)
        let thread = Thread {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var received = 0
            while let count = try? reader.read(into: buffer), count > 0 {
                received += count
                if buffer[count - 1] == 0x0A { break }
            }
            finished.withLock { $0 = received }
        }
        thread.start()
        // Counted, not timed: making the 512 chunks takes at least 512 turns of the loop, and a
        // fair loop answers an echo in each of them; one that wrote the whole stream in a turn
        // would answer almost none before the reader had everything.
        var answeredWhileReading = 0
        while finished.current == nil, answeredWhileReading < 2000 {
            try other.send("ping")
            #expect(try other.receiveText() == "ping")
            if finished.current == nil { answeredWhileReading += 1 }
        }
        #expect(eventually(timeout: .seconds(30)) { finished.current != nil })
        #expect(finished.current == 512 * 64 * 1024 + 1)
        #expect(answeredWhileReading >= 100, "echoes answered while the reader read 32 MiB: \(answeredWhileReading)")
    }

    /// A streamed line's step that never returns (a keyring that accepts and never answers)
    /// waits on the work pool, not on the loop: another client's echoes are answered while it
    /// waits, and after the step timeout its own client gets one complete line, ended by the
    /// producer, and its connection answers the next request.
    @Test func aStuckStepHoldsOnlyItsOwnLineAndEndsItAtTheStepTimeout() throws {
        let progress = Locked(StreamSession.Progress())
        let gate = StreamSession.Gate()
        defer { gate.release() }
        let (server, endpoint) = try startServer(
            limits: LineServerLimits(), progress: progress, gate: gate, stepTimeout: .seconds(2))
        defer { server.stop() }
        let stuck = try LineClient(endpoint: endpoint, timeout: .seconds(20))
        try stuck.send("stuck")
        #expect(eventually(timeout: .seconds(20)) { gate.entered.current == 1 })
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        for number in 0..<100 {
            try other.send("echo \(number)")
            #expect(try other.receiveText() == "echo \(number)")
        }
        #expect(try stuck.receiveText() == #"[1,"timed out"]"#)
        try stuck.send("after")
        #expect(try stuck.receiveText() == "after")
        #expect(gate.entered.current == 1)
    }

    @Test func aClientAskingForStreamsWithoutReadingIsDropped() throws {
        let progress = Locked(StreamSession.Progress())
        let (server, endpoint) = try startServer(
            limits: LineServerLimits(maxPendingOutputBytes: 1 << 20), progress: progress)
        defer { server.stop() }
        let stuck = try Socket.connect(to: endpoint, timeout: .seconds(5))
        defer { stuck.close() }
        // Each request queues a streamed answer; together they pass the 1 MiB budget.
        try stuck.writeAll(Array(String(repeating: "stream 4\n", count: 64).utf8), timeout: .seconds(5))
        #expect(eventually { events.current.contains { $0.hasSuffix("too much output queued") } })
        #expect(eventually { server.budget.queued == 0 })
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try other.send("served")
        #expect(try other.receiveText() == "served")
    }

    /// Redis's soft limit over time: a client that reads nothing while its streamed line waits
    /// is dropped once `outputStallTimeout` passed, while one that reads, however slowly, gets the
    /// whole line; the shared budget the other spent is no reason to drop it.
    @Test func aClientThatReadsNothingIsDroppedAfterTheStallTimeoutAndOneThatReadsIsNot() throws {
        let progress = Locked(StreamSession.Progress())
        let (server, endpoint) = try startServer(
            limits: LineServerLimits(maxPendingOutputBytes: 256 * 1024, outputStallTimeout: .milliseconds(300)),
            progress: progress)
        defer { server.stop() }
        let silent = try Socket.connect(to: endpoint, timeout: .seconds(5))
        defer { silent.close() }
        let reader = try Socket.connect(to: endpoint, timeout: .seconds(5))
        defer { reader.close() }
        // 4 MiB each: far more than the socket buffers and the 256 KiB budget together.
        try silent.writeAll(Array("stream 64\n".utf8), timeout: .seconds(5))
        try reader.writeAll(Array("stream 64\n".utf8), timeout: .seconds(5))
        // The reader reads a chunk at a time with pauses, each far shorter than the timeout.
        let received = Locked(0)
        let thread = Thread {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            defer { buffer.deallocate() }
            while received.current < 64 * 64 * 1024 + 1, let count = try? reader.read(into: buffer), count > 0 {
                received.withLock { $0 += count }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        thread.start()
        #expect(
            eventually { events.current.contains { $0.hasSuffix("read nothing for too long while its answer waited") } }
        )
        #expect(try silent.wait(for: Int16(POLLHUP), until: .now + .seconds(10)))
        #expect(eventually(timeout: .seconds(60)) { received.current == 64 * 64 * 1024 + 1 })
        #expect(events.current.filter { $0.hasSuffix("read nothing for too long while its answer waited") }.count == 1)
    }

    @Test func silentConnectionsAreClosedAtTheDeadlineAndCannotLockAClientOut() throws {
        let progress = Locked(StreamSession.Progress())
        let limits = LineServerLimits(
            maxConnections: 16, authenticationTimeout: .milliseconds(500), maxUnauthenticatedConnections: 2)
        let (server, endpoint) = try startServer(limits: limits, progress: progress)
        defer { server.stop() }
        let silent = try (0..<6).map { _ in try LineClient(endpoint: endpoint, timeout: .seconds(5)) }
        #expect(eventually { server.unauthenticatedCount == 2 && server.connectionCount == 2 })
        #expect(eventually { events.current.filter { $0.hasSuffix("its slot went to a newer connection") }.count == 4 })

        let client = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try client.send("auth")
        #expect(try client.receiveText() == "ok")
        #expect(eventually { server.unauthenticatedCount == 0 })
        // Past the deadline the silent ones are gone; the authenticated one stays.
        for connection in silent {
            #expect(try connection.receiveText(timeout: .seconds(10)) == nil)
        }
        #expect(eventually { events.current.contains { $0.hasSuffix("did not authenticate in time") } })
        try client.send("still here")
        #expect(try client.receiveText() == "still here")
    }
}
