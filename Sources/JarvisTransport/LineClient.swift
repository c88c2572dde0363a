import JarvisCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking line client for the CLI and tests: send a line, wait for lines back.
///
/// One thread may wait in `receiveLine` while another sends; `close()` from any thread wakes
/// a waiting reader, which then sees end of file.
package final class LineClient: Sendable {
    /// Where the client is connected.
    package let endpoint: Endpoint
    private let socket: Socket
    private let timeout: Duration?
    private let reader: Locked<Reader>
    private let writer = Locked(())
    private let closed = Locked(false)

    /// Connects, waiting at most `timeout` for the agent to accept.
    ///
    /// - Parameters:
    ///   - timeout: also bounds how long `send` waits for an agent that stopped reading.
    ///   - maxLineLength: the longest line `receiveLine` accepts; dumps can be large.
    /// - Throws: `SocketError`, e.g. `connect to /x.sock failed: No such file or directory (is the agent running?)`.
    package convenience init(endpoint: Endpoint, timeout: Duration?, maxLineLength: Int = 64 << 20) throws(SocketError)
    {
        try self.init(
            socket: try Socket.connect(to: endpoint, timeout: timeout), endpoint: endpoint, timeout: timeout,
            maxLineLength: maxLineLength)
    }

    /// Speaks lines over a socket already connected (a tunnel to a device's port), which the
    /// client now owns and closes; `endpoint` names it in messages.
    ///
    /// - Throws: `SocketError` when the socket cannot be made non-blocking (it is closed then).
    package init(socket: Socket, endpoint: Endpoint, timeout: Duration?, maxLineLength: Int = 64 << 20)
        throws(SocketError)
    {
        self.endpoint = endpoint
        self.timeout = timeout
        self.socket = socket
        reader = Locked(Reader(framer: LineFramer(maxLineLength: maxLineLength)))
        do {
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw error
        }
    }

    deinit {
        socket.close()
    }

    /// The socket's descriptor, for a readiness source; valid until the client is released.
    package var descriptor: Int32 { socket.fileDescriptor }

    /// Sends `line` followed by `\n`, waiting while the agent's buffer is full.
    ///
    /// - Throws: `SocketError`; `errno` is `ETIMEDOUT` after the init timeout, `EPIPE` if the
    ///   agent went away.
    package func send(_ line: [UInt8]) throws(SocketError) {
        do {
            try writer.withLock { (_: inout Void) throws(SocketError) in
                try socket.writeAll(line + [0x0A], timeout: timeout)
            }
        } catch {
            var error = error
            error.target = endpoint.target
            throw error
        }
    }

    /// Waits for the next line (without its `\n`).
    ///
    /// - Parameter timeout: nil waits for ever.
    /// - Returns: the line, or nil at end of file (the agent closed or reset the connection).
    /// - Throws: `SocketError` with `errno` `ETIMEDOUT` when nothing complete arrived in time,
    ///   or when the line is longer than `maxLineLength`.
    package func receiveLine(timeout: Duration?) throws(SocketError) -> [UInt8]? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        do {
            return try reader.withLock { (reader: inout Reader) throws(SocketError) -> [UInt8]? in
                try receive(into: &reader, until: deadline)
            }
        } catch {
            var error = error
            error.target = endpoint.target
            throw error
        }
    }

    /// Ends the connection; a thread waiting in `receiveLine` gets nil. Idempotent.
    package func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        // Shutdown wakes a blocked reader; the descriptor itself is released in `deinit`, once
        // no thread can be using it.
        if first { socket.shutdown() }
    }

    /// The framer and the read buffer, kept between calls: a fresh 64 KiB buffer per line
    /// cost more than a small answer's whole round trip.
    private struct Reader {
        var framer: LineFramer
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    }

    private func receive(into reader: inout Reader, until deadline: ContinuousClock.Instant?)
        throws(SocketError) -> [UInt8]?
    {
        while true {
            do {
                if let line = try reader.framer.nextLine() { return line }
            } catch {
                throw SocketError(operation: "receive", errno: EMSGSIZE, detail: error.description)
            }
            guard try socket.wait(for: Int16(POLLIN), until: deadline) else {
                throw SocketError(
                    operation: "receive", errno: ETIMEDOUT, detail: "no reply in time; is the agent busy?")
            }
            let outcome = reader.chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SocketError) in try socket.read(into: raw) }
            }
            switch outcome {
            case .success(0):
                return nil
            case .success(let count):
                reader.chunk.withUnsafeBytes { reader.framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .failure(let error) where error.isWouldBlock:
                continue
            case .failure(let error):
                if error.errno == ECONNRESET { return nil }
                throw error
            }
        }
    }
}
