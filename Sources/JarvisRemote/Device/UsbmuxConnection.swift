import JarvisCore
import JarvisTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One socket to usbmuxd: sends requests and reads whole messages, each read bounded in time
/// (``timeout`` per message) and in size (``UsbmuxFrame/maxLength``).
///
/// Not thread-safe: one thread uses a connection at a time. It closes its socket when it goes
/// away, unless ``tunnel()`` handed the socket over.
package final class UsbmuxConnection {
    /// Where the daemon was reached, as messages show it.
    package let target: String
    /// How long one whole message may take to arrive.
    package let timeout: Duration
    private var socket: Socket?
    private var nextTag: UInt32 = 1

    /// Connects to the daemon at `endpoint`.
    ///
    /// - Throws: ``UsbmuxError`` `.notRunning` when nothing listens there, `.timedOut`, `.system`.
    package init(endpoint: Endpoint, timeout: Duration) throws(UsbmuxError) {
        target = endpoint.target
        self.timeout = timeout
        do {
            // The daemon runs as root or a user of its own and serves everyone.
            socket = try Socket.connect(to: endpoint, timeout: timeout, anyListener: true)
        } catch {
            throw UsbmuxError.socket(error, target: endpoint.target)
        }
    }

    deinit {
        socket?.close()
    }

    /// Sends one request of `type` with `fields` and returns its tag.
    @discardableResult
    package func send(_ type: String, _ fields: [PropertyList.Member] = []) throws(UsbmuxError) -> UInt32 {
        let socket = try open()
        let tag = nextTag
        nextTag &+= 1
        let message: [PropertyList.Member] =
            [
                .init("MessageType", .string(type)), .init("ProgName", .string("jarvis")),
                .init("ClientVersionString", .string("jarvis")), .init("kLibUSBMuxVersion", .integer(3)),
            ] + fields
        do {
            try socket.writeAll(UsbmuxFrame.encode(message, tag: tag), timeout: timeout)
        } catch {
            throw UsbmuxError.socket(error, target: target)
        }
        return tag
    }

    /// Reads one whole message, or nil when none began before `deadline` (only with `idleOK`).
    ///
    /// - Parameter idleOK: whether silence until `deadline` is an answer (waiting for events)
    ///   rather than a failure (waiting for a reply).
    /// - Throws: ``UsbmuxError``: `.closed` when the daemon hung up (mid-message or before a
    ///   reply), `.tooLarge`, `.damaged`, `.timedOut`.
    /// - Parameter answering: the request whose reply this is, named when none comes in time.
    package func receive(
        until deadline: ContinuousClock.Instant? = nil, idleOK: Bool = false, answering: String = "the request"
    ) throws(UsbmuxError) -> [PropertyList.Member]? {
        let socket = try open()
        let headerDeadline = deadline ?? ContinuousClock.now + timeout
        guard
            let first = try read(
                socket, UsbmuxFrame.headerSize, until: headerDeadline, idleOK: idleOK, what: "header",
                silence: "usbmuxd at \(target) did not answer \(answering) in \(timeout); is it stuck?")
        else { return nil }
        let header = try UsbmuxFrame.header(first)
        // Once a message has begun, the rest of it must come within the timeout.
        let rest = ContinuousClock.now + timeout
        let payload =
            try read(socket, Int(header.length) - UsbmuxFrame.headerSize, until: rest, idleOK: false, what: "message")
            ?? []
        return try UsbmuxFrame.message(payload)
    }

    /// Sends a request and reads its reply.
    package func request(_ type: String, _ fields: [PropertyList.Member] = []) throws(UsbmuxError) -> [PropertyList
        .Member]
    {
        try send(type, fields)
        guard let reply = try receive(answering: type) else {
            throw UsbmuxError(.timedOut, "usbmuxd at \(target) did not answer \(type) in time; is it stuck?")
        }
        return reply
    }

    /// Hands the socket over (after a successful `Connect` it is a raw tunnel to the device's
    /// port): the caller now owns it and closes it; this connection can no longer be used.
    package func tunnel() throws(UsbmuxError) -> Socket {
        let socket = try open()
        self.socket = nil
        return socket
    }

    private func open() throws(UsbmuxError) -> Socket {
        guard let socket else {
            throw UsbmuxError(.system, "this usbmuxd connection was handed over and cannot be used again")
        }
        return socket
    }

    /// Exactly `count` bytes, or nil when `idleOK` and nothing at all came before `deadline`.
    private func read(
        _ socket: Socket, _ count: Int, until deadline: ContinuousClock.Instant, idleOK: Bool, what: String,
        silence: String? = nil
    ) throws(UsbmuxError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let ready: Bool
            do {
                ready = try socket.wait(for: Int16(POLLIN), until: deadline)
            } catch {
                throw UsbmuxError.socket(error, target: target)
            }
            guard ready else {
                if idleOK, filled == 0 { return nil }
                if filled == 0, let silence { throw UsbmuxError(.timedOut, silence) }
                throw UsbmuxError(
                    .timedOut,
                    "usbmuxd at \(target) stopped in the middle of a \(what) (\(filled) of \(count) bytes came in \(timeout)); is it stuck?"
                )
            }
            let outcome = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SocketError) in
                    try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            }
            switch outcome {
            case .success(0):
                throw UsbmuxError(
                    .closed,
                    filled == 0 && what == "header"
                        ? "usbmuxd at \(target) closed the connection without answering"
                        : "usbmuxd at \(target) closed the connection in the middle of a \(what) (after \(filled) of \(count) bytes)"
                )
            case .success(let read):
                filled += read
            case .failure(let error):
                guard !error.isWouldBlock else { continue }
                throw UsbmuxError.socket(error, target: target)
            }
        }
        return bytes
    }
}
