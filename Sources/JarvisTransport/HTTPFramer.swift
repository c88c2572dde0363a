/// Splits an HTTP/1.1 byte stream into requests: a head up to its blank line, then as many
/// body bytes as its `Content-Length` says; what the head means is read above this layer.
///
/// Input is appended in place and the search for the end of the head resumes where the last
/// one stopped, so a request dripped a byte at a time costs CPU linear in its length; the
/// body is never scanned. A head with no usable `Content-Length` (none, a malformed or
/// repeated one, `Transfer-Encoding`) is handed over alone, for the reader of heads to accept
/// or refuse. Not thread-safe: one connection's loop owns it.
package struct HTTPFramer: Sendable {
    /// Input over the limits: the head or the body is too large.
    package struct Overflow: Error, Sendable, Hashable {
        /// The HTTP status that says so (431 for the head, 413 for the body).
        package var status: Int
        /// Why, for a person.
        package var reason: String
    }

    /// The longest head accepted, in bytes.
    package let maxHead: Int
    /// The longest body accepted, in bytes.
    package let maxBody: Int

    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes from `start` known to hold no end of the head.
    private var scanned = 0
    /// The request being read: where its head ends, and its whole length.
    private var current: (headEnd: Int, length: Int)?
    /// Bytes the search for the end of a head looked at so far (what reading costs).
    package private(set) var examined = 0

    package init(maxHead: Int, maxBody: Int) {
        self.maxHead = maxHead
        self.maxBody = maxBody
    }

    /// Bytes received and not yet handed over.
    package var pendingByteCount: Int { buffer.count - start }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole request (head and body), nil until one arrived.
    /// - Throws: ``Overflow`` once the head or the body passes its limit.
    package mutating func nextRequest() throws(Overflow) -> [UInt8]? {
        if current == nil {
            guard let end = findHeadEnd() else {
                if buffer.count - start > maxHead {
                    throw Overflow(status: 431, reason: "the request head is larger than \(maxHead / 1024) KiB")
                }
                return nil
            }
            guard end - start <= maxHead else {
                throw Overflow(status: 431, reason: "the request head is larger than \(maxHead / 1024) KiB")
            }
            let body = Self.contentLength(buffer[start..<end]) ?? 0
            guard body <= maxBody else {
                throw Overflow(status: 413, reason: "the request body is larger than \(maxBody / 1024) KiB")
            }
            current = (end, end - start + body)
        }
        guard let request = current, buffer.count - start >= request.length else { return nil }
        let bytes = Array(buffer[start..<(start + request.length)])
        start += request.length
        scanned = 0
        current = nil
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        return bytes
    }

    /// The index just past the head's blank line, looking only at bytes not searched before.
    private mutating func findHeadEnd() -> Int? {
        // A `\r\n\r\n` may straddle what was searched and what just arrived.
        var index = start + max(0, scanned - 3)
        let end = buffer.count
        defer { examined += max(0, end - (start + max(0, scanned - 3))) }
        while index + 3 < end {
            if buffer[index + 3] != 0x0A {
                // The last byte of the pattern is not here: the pattern cannot end here.
                index += buffer[index + 3] == 0x0D ? 1 : 4
                continue
            }
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D {
                return index + 4
            }
            index += 1
        }
        scanned = max(0, end - start)
        return nil
    }

    /// The head's `Content-Length`, when it has exactly one well-formed one and no
    /// `Transfer-Encoding`; nil otherwise (the head then goes on alone).
    private static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
        var found: Int?
        var lineStart = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            guard head[index] == 0x0A else {
                index += 1
                continue
            }
            let line = head[lineStart..<index]
            index += 1
            lineStart = index
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = line[line.startIndex..<colon]
            if Self.equalsIgnoringCase(name, "transfer-encoding") { return nil }
            guard Self.equalsIgnoringCase(name, "content-length") else { continue }
            guard found == nil else { return nil }
            var value = 0
            var digits = 0
            for byte in line[(colon + 1)...] where byte != 0x20 && byte != 0x09 && byte != 0x0D {
                guard byte >= 0x30, byte <= 0x39, digits < 12 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                digits += 1
            }
            guard digits > 0 else { return nil }
            found = value
        }
        return found
    }

    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, wanted in (byte | 0x20) == wanted }
        }
    }
}
