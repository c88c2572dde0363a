import Foundation
import JarvisCore
import JarvisTransport

/// Echoes every line back and records what happened, for assertions.
final class EchoSession: LineSession {
    let events: Locked<[String]>
    let tooLongReply: [UInt8]?

    init(events: Locked<[String]>, tooLongReply: [UInt8]? = Array("too long".utf8)) {
        self.events = events
        self.tooLongReply = tooLongReply
    }

    func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
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
