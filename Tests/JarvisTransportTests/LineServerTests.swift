import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisTransport

/// Serialized because the descriptor-leak test counts the whole process's descriptors.
@Suite(.serialized) struct LineServerTests {
    let folder: TemporaryFolder
    let events = Locked<[String]>([])

    init() throws {
        folder = try TemporaryFolder()
    }

    private func startServer(
        limits: LineServerLimits = LineServerLimits(),
        refusalLine: [UInt8]? = nil
    ) throws -> (LineServer, Endpoint) {
        let events = self.events
        let server = LineServer(
            endpoints: [.unix(path: folder.socketPath())], limits: limits, refusalLine: refusalLine
        ) { _ in EchoSession(events: events) }
        try server.start()
        return (server, try #require(server.boundEndpoints.first))
    }

    @Test func echoesForManyClientsAtOnce() throws {
        let (server, endpoint) = try startServer()
        defer { server.stop() }
        let clients = try (0..<24).map { _ in try LineClient(endpoint: endpoint, timeout: .seconds(5)) }
        for round in 0..<20 {
            for (index, client) in clients.enumerated() {
                try client.send("client \(index) round \(round)")
            }
        }
        for round in 0..<20 {
            for (index, client) in clients.enumerated() {
                #expect(try client.receiveText() == "client \(index) round \(round)")
            }
        }
        #expect(server.connectionCount == 24)
        for client in clients { client.close() }
        #expect(eventually { server.connectionCount == 0 })
    }

    @Test func tooLongLineGetsTheReplyThenCloseWhileOthersContinue() throws {
        let (server, endpoint) = try startServer(limits: LineServerLimits(maxLineLength: 1024))
        defer { server.stop() }
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        let offender = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try offender.send(String(repeating: "x", count: 64 * 1024))
        #expect(try offender.receiveText() == "too long")
        #expect(try offender.receiveText() == nil)
        try other.send("still here")
        #expect(try other.receiveText() == "still here")
        offender.close()
        #expect(eventually { self.events.current.contains { $0.hasSuffix("request line too long") } })
    }

    @Test func clientDisconnectingMidLineEndsOnlyThatConnection() throws {
        let (server, endpoint) = try startServer()
        defer { server.stop() }
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        let leaver = try Socket.connect(to: endpoint, timeout: .seconds(5))
        try leaver.writeAll(Array("half a li".utf8) + [0xFF, 0xFE])
        leaver.close()
        #expect(eventually { self.events.current.contains { $0.hasSuffix("closed by the peer") } })
        #expect(!events.current.contains { $0.contains("half") })
        try other.send("fine")
        #expect(try other.receiveText() == "fine")
    }

    @Test func resetClientEndsOnlyThatConnection() throws {
        let (server, endpoint) = try startServer()
        defer { server.stop() }
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        let rude = try Socket.connect(to: endpoint, timeout: .seconds(5))
        try rude.writeAll(Array("flood 2000\n".utf8))
        // Closing with unread input makes the kernel send a reset.
        #expect(eventually { self.events.current.contains { $0.hasSuffix("flood 2000") } })
        rude.close()
        #expect(eventually { self.events.current.contains { $0.hasPrefix("closed") } })
        try other.send("fine")
        #expect(try other.receiveText() == "fine")
    }

    @Test func refusesClientsOverMaxConnections() throws {
        let (server, endpoint) = try startServer(
            limits: LineServerLimits(maxConnections: 2), refusalLine: Array("busy".utf8)
        )
        defer { server.stop() }
        let first = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        let second = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        for client in [first, second] {
            try client.send("hi")
            #expect(try client.receiveText() == "hi")
        }
        let third = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        #expect(try third.receiveText() == "busy")
        #expect(try third.receiveText() == nil)
        first.close()
        #expect(eventually { server.connectionCount == 1 })
        let fourth = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try fourth.send("room again")
        #expect(try fourth.receiveText() == "room again")
    }

    @Test func clientsThatAlreadyLeftDoNotLockOutANewOne() throws {
        // The first two connections' threads start late, as under CPU load: their peers are
        // gone, but they hold both slots until their threads see it.
        let events = self.events
        let server = LineServer(
            endpoints: [.unix(path: folder.socketPath())], limits: LineServerLimits(maxConnections: 2),
            refusalLine: Array("busy".utf8)
        ) { connection in
            if connection.id <= 2 { Thread.sleep(forTimeInterval: 0.2) }
            return EchoSession(events: events)
        }
        try server.start()
        defer { server.stop() }
        let endpoint = try #require(server.boundEndpoints.first)
        for _ in 0..<2 { try LineClient(endpoint: endpoint, timeout: .seconds(5)).close() }
        let live = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try live.send("served")
        #expect(try live.receiveText(timeout: .seconds(20)) == "served")
    }

    @Test func idleTimeoutClosesQuietConnections() throws {
        let (server, endpoint) = try startServer(limits: LineServerLimits(idleTimeout: .milliseconds(200)))
        defer { server.stop() }
        let client = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try client.send("once")
        #expect(try client.receiveText() == "once")
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try client.receiveText(timeout: .seconds(5)) == nil)
        #expect(clock.now - start < .seconds(3))
        #expect(eventually { self.events.current.contains { $0.hasSuffix("idle timeout") } })
    }

    @Test func clientThatNeverReadsIsDroppedAndOthersAreServed() throws {
        let (server, endpoint) = try startServer(limits: LineServerLimits(maxPendingOutputBytes: 256 * 1024))
        defer { server.stop() }
        let stuck = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        // 8 MiB of replies: far more than the socket buffers plus the 256 KiB allowance.
        try stuck.send("flood 8192")
        #expect(eventually { self.events.current.contains { $0.contains("too much output queued") } })
        let other = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try other.send("served")
        #expect(try other.receiveText() == "served")
        stuck.close()
    }

    @Test func sessionCanCloseAfterAFinalReply() throws {
        let (server, endpoint) = try startServer()
        defer { server.stop() }
        let client = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try client.send("close")
        #expect(try client.receiveText() == "bye")
        #expect(try client.receiveText() == nil)
    }

    @Test func pushesFromOtherThreadsReachTheClient() throws {
        let connections = Locked<[LineConnection]>([])
        let events = self.events
        let server = LineServer(endpoints: [.unix(path: folder.socketPath())]) { connection in
            connections.withLock { $0.append(connection) }
            return EchoSession(events: events)
        }
        try server.start()
        defer { server.stop() }
        let client = try LineClient(endpoint: try #require(server.boundEndpoints.first), timeout: .seconds(5))
        try client.send("hello")
        #expect(try client.receiveText() == "hello")
        let connection = try #require(connections.current.first)
        let pusher = Thread { for index in 0..<100 { connection.send(Array("note \(index)".utf8)) } }
        pusher.start()
        for index in 0..<100 {
            #expect(try client.receiveText() == "note \(index)")
        }
    }

    @Test func stopReturnsPromptlyAndRemovesTheSocketFile() throws {
        let (server, endpoint) = try startServer()
        let clients = try (0..<8).map { _ in try LineClient(endpoint: endpoint, timeout: .seconds(5)) }
        for client in clients {
            try client.send("ping")
            #expect(try client.receiveText() == "ping")
        }
        let clock = ContinuousClock()
        let elapsed = clock.measure { server.stop() }
        // The clients stay connected: a stop that waited for them would never return.
        #expect(elapsed < .seconds(10))
        #expect(!FileManager.default.fileExists(atPath: folder.socketPath()))
        #expect(server.connectionCount == 0)
        for client in clients {
            #expect(try client.receiveText() == nil)
        }
        server.stop()
        #expect(throws: SocketError.self) { try LineClient(endpoint: endpoint, timeout: .seconds(1)) }
        #expect(events.current.filter { $0.hasSuffix("server stopped") }.count == 8)
    }

    @Test func servesTCPWithPortZero() throws {
        let events = self.events
        let server = LineServer(endpoints: [.tcp(host: "127.0.0.1", port: 0)]) { _ in EchoSession(events: events) }
        try server.start()
        defer { server.stop() }
        let endpoint = try #require(server.boundEndpoints.first)
        guard case .tcp(_, let port) = endpoint else { throw SocketError(operation: "test") }
        #expect(port != 0)
        let client = try LineClient(endpoint: endpoint, timeout: .seconds(5))
        try client.send("over tcp")
        #expect(try client.receiveText() == "over tcp")
    }

    @Test func noDescriptorLeakOver200Connections() throws {
        let (server, endpoint) = try startServer()
        defer { server.stop() }
        guard let before = openDescriptorCount() else { return }
        for index in 0..<200 {
            let client = try LineClient(endpoint: endpoint, timeout: .seconds(5))
            if index.isMultiple(of: 2) {
                try client.send("x")
                #expect(try client.receiveText() == "x")
            }
            client.close()
        }
        #expect(eventually { server.connectionCount == 0 })
        // Other suites may run alongside and hold a few descriptors; a leak would show hundreds.
        #expect(eventually { (openDescriptorCount() ?? .max) <= before + 10 })
    }
}
