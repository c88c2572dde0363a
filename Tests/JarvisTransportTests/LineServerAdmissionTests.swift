import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisTransport

/// The one admission policy for connections that have not authenticated (for the page's
/// server, those whose first request is still arriving), on a real HTTP-framed `LineServer`:
/// who keeps a slot, who is displaced, what takes no slot, and what the byte budget drops.
@Suite struct LineServerAdmissionTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Authenticates on any whole request and answers it with its first line.
    final class FirstLine: LineSession {
        func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
            connection.authenticated()
            let first = line.split(separator: 0x0D, maxSplits: 1).first.map { Array($0) } ?? []
            let body = Array("answered ".utf8) + first
            connection.send(raw: Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
            connection.close()
        }

        func lineTooLong(on connection: LineConnection) -> [UInt8]? { nil }
        func closed(_ connection: LineConnection) {}
    }

    private func start(slots: Int, grace: Duration, budget: Int = 1 << 20) throws -> (LineServer, Endpoint) {
        let limits = LineServerLimits(
            authenticationTimeout: .seconds(60), maxUnauthenticatedConnections: slots, pendingGrace: grace,
            maxUnauthenticatedInputBytes: budget, framing: .http(maxHead: 16 * 1024, maxBody: 1 << 20))
        let server = LineServer(endpoints: [.unix(path: folder.socketPath())], limits: limits) { _ in FirstLine() }
        try server.start()
        return (server, try #require(server.boundEndpoints.first))
    }

    private func connect(_ endpoint: Endpoint, sending text: String? = nil) throws -> Socket {
        let socket = try Socket.connect(to: endpoint, timeout: .seconds(5))
        if let text { try socket.writeAll(Array(text.utf8), timeout: .seconds(5)) }
        return socket
    }

    /// Everything the server sent until it closed (nil if it did not within the time).
    private func answer(_ socket: Socket, within timeout: Duration = .seconds(10)) throws -> String? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        while true {
            guard try socket.wait(for: Int16(POLLIN), until: deadline) else { return nil }
            let count = (try? chunk.withUnsafeMutableBytes { try socket.read(into: $0) }) ?? 0
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }

    let request = "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func aConnectionThatHasNotWrittenYetKeepsItsSlotThroughItsGrace() throws {
        let (server, endpoint) = try start(slots: 2, grace: .seconds(60))
        defer { server.stop() }
        let slow = try connect(endpoint)
        let crowd = try connect(endpoint, sending: "GET / HTTP/1.1\r\n")
        #expect(eventually { server.unauthenticatedCount == 2 })
        // Every slot is within its grace: the newcomer waits in the kernel's queue, and
        // nobody is displaced for it.
        let newcomer = try connect(endpoint, sending: request)
        try slow.writeAll(Array(request.utf8), timeout: .seconds(5))
        #expect(try answer(slow)?.hasSuffix("answered GET /app.js HTTP/1.1") == true)
        // A slot freed: the newcomer is read, whole, and answered.
        #expect(try answer(newcomer)?.hasSuffix("answered GET /app.js HTTP/1.1") == true)
        #expect(try !crowd.wait(for: Int16(POLLIN), until: .now + .milliseconds(200)), "the crowd was not closed")
    }

    @Test func pastItsGraceTheOldestMakesRoomForANewcomer() throws {
        let (server, endpoint) = try start(slots: 1, grace: .zero)
        defer { server.stop() }
        let old = try connect(endpoint, sending: "GET / HTTP/1.1\r\n")
        #expect(eventually { server.unauthenticatedCount == 1 })
        let new = try connect(endpoint, sending: "GET / HTTP/1.1\r\n")
        #expect(try answer(old) == "", "the oldest was closed without an answer")
        try new.writeAll(Array("Host: 127.0.0.1\r\n\r\n".utf8), timeout: .seconds(5))
        #expect(try answer(new)?.hasSuffix("answered GET / HTTP/1.1") == true)
    }

    /// The newcomer waits in the kernel's queue through the oldest's grace, so its request is
    /// there when it is accepted: read at once, it takes no slot and displaces nobody.
    @Test func aRequestThatArrivedWholeTakesNoSlot() throws {
        let (server, endpoint) = try start(slots: 1, grace: .seconds(1))
        defer { server.stop() }
        let waiting = try connect(endpoint, sending: "GET / HTTP/1.1\r\n")
        #expect(eventually { server.unauthenticatedCount == 1 })
        let whole = try connect(endpoint, sending: request)
        #expect(try answer(whole)?.hasSuffix("answered GET /app.js HTTP/1.1") == true)
        // The one already waiting kept its slot.
        try waiting.writeAll(Array("Host: 127.0.0.1\r\n\r\n".utf8), timeout: .seconds(5))
        #expect(try answer(waiting)?.hasSuffix("answered GET / HTTP/1.1") == true)
    }

    @Test func overTheByteBudgetTheOneHoldingTheMostIsClosed() throws {
        let (server, endpoint) = try start(slots: 4, grace: .seconds(60), budget: 100)
        defer { server.stop() }
        let large = try connect(endpoint, sending: "GET / HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 60) + "\r\n")
        #expect(eventually { server.unauthenticatedCount == 1 })
        let small = try connect(endpoint, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(try answer(large) == "")
        try small.writeAll(Array("\r\n".utf8), timeout: .seconds(5))
        #expect(try answer(small)?.hasSuffix("answered GET / HTTP/1.1") == true)
    }
}
