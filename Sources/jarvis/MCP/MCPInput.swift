import Foundation
import JarvisRemote
import JarvisTransport

/// Reads the client's lines from a file descriptor (standard input) with the agent's
/// ``LineFramer``, so both faces frame alike: the same limit handling, memory bounded by the
/// limit plus one read whatever the client sends.
struct MCPInput {
    /// One unit of input.
    enum Event {
        /// A complete line (without its `\n` and an optional `\r`).
        case line([UInt8])
        /// A line over the limit, dropped; the error holds its first bytes.
        case tooLong(LineFramer.Overflow)
        /// The client closed its end.
        case end
    }

    private let descriptor: Int32
    private var framer: LineFramer
    private var finished = false

    init(descriptor: Int32 = STDIN_FILENO, limit: Int) {
        self.descriptor = descriptor
        framer = LineFramer(maxLineLength: limit)
    }

    /// The next event, blocking until one is complete.
    mutating func next() -> Event {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                if let line = try framer.nextLine() { return .line(line) }
                if finished {
                    // A last line without a newline still counts.
                    return try framer.finish().map(Event.line) ?? .end
                }
            } catch {
                return .tooLong(error)
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                finished = true
                continue
            }
            chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
