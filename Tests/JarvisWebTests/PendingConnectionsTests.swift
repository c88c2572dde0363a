import Foundation
import JarvisTransport
import Testing

@testable import JarvisWeb

/// ``PendingConnections`` on real loopback sockets: who keeps a place, who is pushed out, and
/// what the byte budget drops.
@Suite struct PendingConnectionsTests {
    let listener: Socket
    let queue: any EventQueue

    init() throws {
        listener = try Socket.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 16)
        queue = try makeEventQueue()
    }

    /// A client connected to the listener, and the server's side of it, accepted.
    func connect(sending text: String? = nil) throws -> (client: Socket, server: Socket) {
        let client = try Socket.connect(
            to: .tcp(host: "127.0.0.1", port: listener.boundPort ?? 0), timeout: .seconds(5))
        if let text { try client.writeAll(Array(text.utf8)) }
        let (server, _) = try listener.accept()
        if text != nil { _ = try server.wait(for: Int16(POLLIN), until: .now + .seconds(5)) }
        return (client, server)
    }

    /// Waits for what the clients sent and reads it, until one request is whole.
    func nextWhole(_ pending: inout PendingConnections) throws -> HTTPRequest.Outcome? {
        var ready: [ReadyEvent] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            try queue.wait(timeout: 100, into: &ready)
            for event in ready {
                if let (socket, outcome) = pending.read(event.descriptor) {
                    socket.close()
                    return outcome
                }
            }
        }
        return nil
    }

    /// Whether the server closed the client's connection.
    func isClosed(_ client: Socket) throws -> Bool {
        guard try client.wait(for: Int16(POLLIN), until: .now + .seconds(5)) else { return false }
        var byte = [UInt8](repeating: 0, count: 1)
        let count = try? byte.withUnsafeMutableBytes { try client.read(into: $0) }
        return count == nil || count == 0
    }

    let request = "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func aConnectionThatHasNotWrittenYetKeepsItsPlaceThroughItsGrace() throws {
        var pending = PendingConnections(queue: queue, limit: 2, grace: .seconds(60), budget: 1 << 20)
        let slow = try connect()
        #expect(pending.add(slow.server, now: .now, deadline: .now + .seconds(60)) == nil)
        let crowd = try connect(sending: "GET / HTTP/1.1\r\n")
        #expect(pending.add(crowd.server, now: .now, deadline: .now + .seconds(60)) == nil)
        // Every place is within its grace: nobody more is taken, so nobody is pushed out.
        #expect(!pending.hasRoom(now: .now))
        #expect(pending.nextRoom != nil)
        try slow.client.writeAll(Array(request.utf8))
        guard case .request(let read, _) = try nextWhole(&pending) else {
            Issue.record("the slow client's request was not read")
            return
        }
        #expect(read.path == "/app.js")
        #expect(pending.count == 1)
    }

    @Test func pastItsGraceTheOldestMakesRoomForANewcomer() throws {
        var pending = PendingConnections(queue: queue, limit: 1, grace: .zero, budget: 1 << 20)
        let old = try connect(sending: "GET / HTTP/1.1\r\n")
        #expect(pending.add(old.server, now: .now, deadline: .now + .seconds(60)) == nil)
        #expect(pending.hasRoom(now: .now))
        let new = try connect(sending: "GET / HTTP/1.1\r\n")
        #expect(pending.add(new.server, now: .now, deadline: .now + .seconds(60)) == nil)
        #expect(pending.count == 1)
        #expect(try isClosed(old.client))
    }

    @Test func aRequestThatArrivedWholeTakesNoPlace() throws {
        var pending = PendingConnections(queue: queue, limit: 1, grace: .zero, budget: 1 << 20)
        let waiting = try connect(sending: "GET / HTTP/1.1\r\n")
        #expect(pending.add(waiting.server, now: .now, deadline: .now + .seconds(60)) == nil)
        let whole = try connect(sending: request)
        guard let (socket, outcome) = pending.add(whole.server, now: .now, deadline: .now + .seconds(60)),
            case .request(let read, _) = outcome
        else {
            Issue.record("a whole request was not handed back at once")
            return
        }
        socket.close()
        #expect(read.path == "/app.js")
        // The one already waiting kept its place.
        #expect(pending.count == 1)
        try waiting.client.writeAll(Array("Host: 127.0.0.1\r\n\r\n".utf8))
        guard case .request = try nextWhole(&pending) else {
            Issue.record("the waiting connection was pushed out")
            return
        }
    }

    @Test func overTheByteBudgetTheLargestIsDropped() throws {
        var pending = PendingConnections(queue: queue, limit: 4, grace: .seconds(60), budget: 100)
        let large = try connect(sending: "GET / HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 60) + "\r\n")
        #expect(pending.add(large.server, now: .now, deadline: .now + .seconds(60)) == nil)
        let small = try connect(sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(pending.add(small.server, now: .now, deadline: .now + .seconds(60)) == nil)
        #expect(pending.count == 1)
        #expect(try isClosed(large.client))
        try small.client.writeAll(Array("\r\n".utf8))
        guard case .request = try nextWhole(&pending) else {
            Issue.record("the small request was dropped")
            return
        }
    }
}
