#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a byte stream into `\n`-terminated lines, without sockets or JSON.
///
/// The transport feeds whatever the socket returned (`append`) and drains complete lines
/// (`nextLine`). Bytes are scanned once: the position already searched for a newline is
/// remembered, so a long line arriving in many small chunks costs linear time, and consumed
/// bytes are compacted away only once they outweigh the live ones.
package struct LineFramer: Sendable {
    /// Thrown when a line is longer than `maxLineLength`; the offending line is discarded.
    package struct Overflow: Error, Sendable, Hashable, CustomStringConvertible {
        /// The limit that was exceeded.
        package var maxLineLength: Int
        /// The first bytes of the dropped line, at most ``LineFramer/overflowPrefixLength``:
        /// enough for a reader to tell what the line was (a request's `id`), never the whole.
        package var prefix: [UInt8]

        /// An overflow of a line beginning with `prefix`.
        package init(maxLineLength: Int, prefix: [UInt8] = []) {
            self.maxLineLength = maxLineLength
            self.prefix = prefix
        }

        /// Explains the limit, so a log line tells the reader what to change.
        package var description: String {
            "line longer than \(maxLineLength) bytes"
        }
    }

    /// The longest line accepted, in bytes, not counting the `\n` or a `\r` before it.
    package let maxLineLength: Int

    /// How many of a dropped line's first bytes its ``Overflow`` carries.
    package static let overflowPrefixLength = 64 * 1024

    private var buffer: [UInt8] = []
    // Index of the first byte of the line being assembled; everything before it is consumed.
    private var start = 0
    // Index from which the search for the next newline resumes; no `\n` lies in start..<scanned.
    private var scanned = 0
    // Set after an overflow on a line whose end has not arrived yet: its bytes are dropped
    // until the newline, so the caller may carry on with the next line if it wants to.
    private var discarding = false

    private static let newline: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    // Compaction moves bytes; doing it only past this size keeps small streams copy-free.
    private static let compactionThreshold = 4096

    /// Creates a framer that rejects lines longer than `maxLineLength` bytes.
    package init(maxLineLength: Int) {
        self.maxLineLength = max(0, maxLineLength)
    }

    /// Bytes received but not yet returned as a line.
    package var pendingByteCount: Int {
        buffer.count - start
    }

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Returns the next complete line without its `\n` (and without a `\r` just before it),
    /// or nil when no complete line has arrived yet.
    ///
    /// - Throws: `Overflow` when a completed line, or the partial line still waiting for its
    ///   newline, is longer than `maxLineLength`. The line is dropped; later lines still frame.
    package mutating func nextLine() throws(Overflow) -> [UInt8]? {
        guard let end = findNewline() else {
            if discarding {
                // Nothing of the overlong line is worth keeping.
                start = buffer.count
                scanned = buffer.count
            } else if partialLineIsTooLong() {
                let dropped = overflow(from: start, to: buffer.count)
                discarding = true
                start = buffer.count
                scanned = buffer.count
                throw dropped
            }
            return nil
        }
        let lineStart = start
        start = end + 1
        scanned = start
        if discarding {
            discarding = false
            return try nextLine()
        }
        var lineEnd = end
        if lineEnd > lineStart, buffer[lineEnd - 1] == Self.carriageReturn {
            lineEnd -= 1
        }
        guard lineEnd - lineStart <= maxLineLength else {
            throw overflow(from: lineStart, to: lineEnd)
        }
        return Array(buffer[lineStart..<lineEnd])
    }

    /// Ends the stream, once ``nextLine()`` returned nil: returns the last line when it has no
    /// `\n` (without a trailing `\r`), or nil when nothing is left; afterwards the framer is empty.
    ///
    /// - Throws: `Overflow` when that last line is longer than `maxLineLength`.
    package mutating func finish() throws(Overflow) -> [UInt8]? {
        defer {
            buffer.removeAll()
            start = 0
            scanned = 0
            discarding = false
        }
        guard !discarding, start < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == Self.carriageReturn { end -= 1 }
        guard end - start <= maxLineLength else { throw overflow(from: start, to: end) }
        return Array(buffer[start..<end])
    }

    /// The error for the overlong line in `from..<to`, with its first bytes.
    private func overflow(from: Int, to: Int) -> Overflow {
        Overflow(maxLineLength: maxLineLength, prefix: Array(buffer[from..<min(to, from + Self.overflowPrefixLength)]))
    }

    /// Finds the next `\n` at or after `scanned`, remembering how far the search went.
    private mutating func findNewline() -> Int? {
        let from = scanned
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            guard from < bytes.count, let base = bytes.baseAddress,
                let hit = memchr(base + from, Int32(Self.newline), bytes.count - from)
            else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        scanned = found ?? buffer.count
        return found
    }

    /// True when the bytes waiting for a newline can no longer form an acceptable line.
    private func partialLineIsTooLong() -> Bool {
        let pending = buffer.count - start
        if pending <= maxLineLength { return false }
        // One byte over is still fine if it is the `\r` of a CRLF whose `\n` is on its way.
        return !(pending == maxLineLength + 1 && buffer.last == Self.carriageReturn)
    }

    /// Drops consumed bytes once they are at least half the buffer, so each byte is moved
    /// at most a constant number of times overall.
    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            scanned = 0
        } else if start >= Self.compactionThreshold, start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
        } else {
            return
        }
        start = 0
    }
}
