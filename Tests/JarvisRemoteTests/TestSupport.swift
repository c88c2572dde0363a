import Foundation
import JarvisCore

@testable import JarvisRemote
@testable import JarvisTransport

/// A fresh folder with a short path (Unix socket paths must stay under 104–108 bytes).
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/jvr.XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw SocketError(operation: "mkdtemp", errno: errno)
        }
        path = String(decoding: UnsafeRawBufferPointer(start: created, count: strlen(created)), as: UTF8.self)
    }

    func socketPath(_ name: String = "a.sock") -> String {
        "\(path)/\(name)"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Echoes every line back and records what happened, for assertions.
final class EchoSession: LineSession {
    let events: Locked<[String]>
    let tooLongReply: [UInt8]?

    init(events: Locked<[String]>, tooLongReply: [UInt8]? = Array("too long".utf8)) {
        self.events = events
        self.tooLongReply = tooLongReply
    }

    func received(line: [UInt8], on connection: LineConnection) {
        let text = String(decoding: line, as: UTF8.self)
        events.withLock { $0.append("line \(connection.id) \(text)") }
        if text.hasPrefix("flood ") {
            let count = Int(text.dropFirst("flood ".count)) ?? 0
            let chunk = [UInt8](repeating: 0x78, count: 1024)
            for _ in 0..<count { connection.send(chunk) }
        } else if text == "close" {
            connection.send(Array("bye".utf8))
            connection.close()
        } else {
            connection.send(line)
        }
    }

    func lineTooLong(on connection: LineConnection) -> [UInt8]? {
        events.withLock { $0.append("too long \(connection.id)") }
        return tooLongReply
    }

    func closed(_ connection: LineConnection) {
        let reason = connection.closeReason.map { "\($0)" } ?? "nil"
        events.withLock { $0.append("closed \(connection.id) \(reason)") }
    }
}

/// Open descriptors of this process, or nil where /proc is missing.
func openDescriptorCount() -> Int? {
    try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

extension LineClient {
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func receiveText(timeout: Duration = .seconds(5)) throws -> String? {
        try receiveLine(timeout: timeout).map { String(decoding: $0, as: UTF8.self) }
    }
}
