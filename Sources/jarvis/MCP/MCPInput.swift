import Foundation
import JarvisCore

/// Reads the client's newline-delimited messages from a file descriptor (standard input).
///
/// A line longer than ``limit`` is not kept: its first bytes are, so that the error answer
/// can carry the request's `id` when it can be read there, and the rest is dropped up to
/// the next newline. Memory stays bounded whatever the client sends.
struct MCPInput {
    /// One unit of input.
    enum Event {
        /// A complete line (without its `\n` and an optional `\r`).
        case line(ArraySlice<UInt8>)
        /// A line over the limit: its first bytes and its full length.
        case tooLong(prefix: [UInt8], length: Int)
        /// The client closed its end.
        case end
    }

    /// The longest line kept, in bytes.
    let limit: Int
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes: bytes before it hold none.
    private var scanned = 0
    private var overflow: (prefix: [UInt8], length: Int)?
    private var finished = false

    /// How much of an overlong line is kept to find its `id`.
    static let prefixLength = 64 * 1024

    init(descriptor: Int32 = STDIN_FILENO, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    /// The next event, blocking until one is complete.
    mutating func next() -> Event {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let event = takeBuffered() { return event }
            if finished { return .end }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                finished = true
                // A last line without a newline still counts.
                if let overflow {
                    self.overflow = nil
                    return .tooLong(prefix: overflow.prefix, length: overflow.length)
                }
                if start < pending.count {
                    let line = pending[start...]
                    pending = []
                    start = 0
                    scanned = 0
                    return .line(Self.trimmed(line))
                }
                return .end
            }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    private mutating func takeBuffered() -> Event? {
        if var overflow {
            let newline = pending[start...].firstIndex(of: 0x0A)
            let end = newline ?? pending.count
            // Keep the line's first bytes, however the reads cut it, to find its id.
            let room = Self.prefixLength - overflow.prefix.count
            if room > 0 { overflow.prefix += pending[start..<min(end, start + room)] }
            overflow.length += end - start
            if let newline {
                start = newline + 1
                scanned = start
                self.overflow = nil
                compact()
                return .tooLong(prefix: overflow.prefix, length: overflow.length)
            }
            self.overflow = overflow
            pending = []
            start = 0
            scanned = 0
            return nil
        }
        if let newline = pending[min(max(start, scanned), pending.count)...].firstIndex(of: 0x0A) {
            let line = pending[start..<newline]
            start = newline + 1
            scanned = start
            guard line.count <= limit else {
                compact()
                return .tooLong(prefix: Array(line.prefix(Self.prefixLength)), length: line.count)
            }
            // The slice must not move under the caller: copy it out before compacting.
            let copy = Array(Self.trimmed(line))
            compact()
            return .line(copy[...])
        }
        scanned = pending.count
        if pending.count - start > limit {
            overflow = (Array(pending[start...].prefix(Self.prefixLength)), pending.count - start)
            pending = []
            start = 0
            scanned = 0
        }
        return nil
    }

    private mutating func compact() {
        if start > 1 << 20 || start == pending.count {
            pending.removeFirst(start)
            scanned -= start
            start = 0
        }
    }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == 0x0D ? line.dropLast() : line
    }
}
