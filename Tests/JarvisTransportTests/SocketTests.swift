import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisTransport

@Suite struct SocketTests {
    @Test func unixSocketFileIsOwnerOnly() throws {
        let folder = try TemporaryFolder()
        let path = folder.socketPath()
        let socket = try Socket.listen(on: .unix(path: path))
        defer { socket.close() }
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(UInt32(info.st_mode) & 0o777 == 0o600)
        #expect(UInt32(info.st_mode) & 0o170000 == 0o140000)
    }

    @Test func replacesAStaleSocketFileButNotOtherFiles() throws {
        let folder = try TemporaryFolder()
        let path = folder.socketPath()
        // A socket whose owner is gone: bound, then closed without removing the file.
        try Socket.listen(on: .unix(path: path)).close()
        let again = try Socket.listen(on: .unix(path: path))
        // While it is live, a second listener must not steal the path.
        #expect(throws: SocketError.self) { try Socket.listen(on: .unix(path: path)) }
        again.close()

        let plain = folder.socketPath("plain")
        #expect(FileManager.default.createFile(atPath: plain, contents: Data("keep".utf8)))
        let error = #expect(throws: SocketError.self) { try Socket.listen(on: .unix(path: plain)) }
        #expect(error?.description.contains("not a socket") == true)
        #expect(FileManager.default.fileExists(atPath: plain))
    }

    @Test func aUnixConnectWaitsForRoomInAFullBacklog() throws {
        let folder = try TemporaryFolder()
        let endpoint = Endpoint.unix(path: folder.socketPath())
        let listener = try Socket.listen(on: endpoint, backlog: 1)
        defer { listener.close() }
        // Nobody accepts: connect until the backlog is full and connecting times out.
        var queued: [Socket] = []
        defer { for socket in queued { socket.close() } }
        while queued.count < 64, let socket = try? Socket.connect(to: endpoint, timeout: .milliseconds(100)) {
            queued.append(socket)
        }
        #expect(queued.count < 64, "the backlog never filled")
        // Room appears a little later; a connect with a timeout must wait for it, not fail.
        let accepted = Locked<[Socket]>([])
        defer { for socket in accepted.current { socket.close() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
            if let (socket, _) = try? listener.accept() { accepted.withLock { $0.append(socket) } }
        }
        let late = try Socket.connect(to: endpoint, timeout: .seconds(20))
        late.close()
        #expect(accepted.current.count == 1)
    }

    @Test func tcpPortZeroReportsTheChosenPort() throws {
        let socket = try Socket.listen(on: .tcp(host: "127.0.0.1", port: 0))
        defer { socket.close() }
        let port = try #require(socket.boundPort)
        #expect(port != 0)
        let client = try Socket.connect(to: .tcp(host: "localhost", port: port), timeout: .seconds(2))
        client.close()
    }

    @Test func tcpListensOnIPv6Loopback() throws {
        // A machine without an IPv6 loopback has nothing to test here.
        guard let socket = try? Socket.listen(on: .tcp(host: "::1", port: 0)) else { return }
        defer { socket.close() }
        let port = try #require(socket.boundPort)
        let client = try Socket.connect(to: .tcp(host: "::1", port: port), timeout: .seconds(2))
        defer { client.close() }
        let (accepted, peer) = try acceptWaiting(socket)
        accepted.close()
        #expect(peer.hasPrefix("[::1]:"))
    }

    @Test func connectingToAMissingPathExplainsWhatToDo() throws {
        let folder = try TemporaryFolder()
        let path = folder.socketPath("missing.sock")
        let error = #expect(throws: SocketError.self) {
            try Socket.connect(to: .unix(path: path), timeout: .seconds(1))
        }
        #expect(error?.errno == ENOENT)
        #expect(error?.description == "connect to \(path) failed: No such file or directory (is the agent running?)")
    }

    @Test func tooLongUnixPathSuggestsAShorterFolder() throws {
        let path = "/tmp/" + String(repeating: "d", count: 200) + "/agent.sock"
        let error = #expect(throws: SocketError.self) { try Socket.listen(on: .unix(path: path)) }
        #expect(error?.description.contains("shorter runtime folder") == true)
        #expect(throws: SocketError.self) { try Socket.connect(to: .unix(path: path), timeout: nil) }
    }

    @Test func hostNamesOtherThanLocalhostAreRejected() {
        #expect(throws: SocketError.self) { try Socket.listen(on: .tcp(host: "example.com", port: 0)) }
    }

    @Test func parsesEndpoints() throws {
        #expect(try Endpoint(parsing: "tcp://127.0.0.1:7777") == .tcp(host: "127.0.0.1", port: 7777))
        #expect(try Endpoint(parsing: "tcp://[::1]:80") == .tcp(host: "::1", port: 80))
        #expect(try Endpoint(parsing: "unix:///tmp/a.sock") == .unix(path: "/tmp/a.sock"))
        #expect(try Endpoint(parsing: " /tmp/a.sock\n") == .unix(path: "/tmp/a.sock"))
        for text in ["tcp://[::1]:80", "tcp://localhost:1", "unix:///x/y.sock"] {
            #expect(try Endpoint(parsing: text).description == text)
        }
        for bad in [
            "", "a.sock", "tcp://host", "tcp://:80", "tcp://h:70000", "tcp://::1:80", "unix://rel", "http://x:1",
        ] {
            #expect(throws: SocketError.self, "\(bad)") { try Endpoint(parsing: bad) }
        }
    }

    private func acceptWaiting(_ listener: Socket) throws -> (Socket, peer: String) {
        _ = try listener.wait(for: Int16(POLLIN), until: .now + .seconds(2))
        return try listener.accept()
    }
}
