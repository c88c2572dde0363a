#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loop that runs on a connection's own thread and does all of its socket I/O.
///
/// It sleeps in `poll` on the socket and the connection's wake pipe, with no timeout unless
/// an idle timeout or a closing deadline applies, so an idle connection costs no CPU.
/// Writes are non-blocking from a local buffer; `POLLOUT` is requested only while it is non-empty.
/// Not `Sendable`: it is created on the thread that runs it and never leaves it.
final class LineConnectionWorker {
    private let connection: LineConnection
    private let socket: Socket
    private let idleTimeout: Duration?
    private var framer: LineFramer
    private var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    private var lastInput = ContinuousClock.now
    private var closing: Closing?

    /// How long a graceful close may spend flushing replies and draining input.
    static let lingerTimeout: Duration = .seconds(2)
    private static let readSize = 64 * 1024

    private struct Closing {
        var reason: LineConnection.CloseReason
        var deadline: ContinuousClock.Instant
        /// After the output is flushed the write side is shut and input is read and dropped,
        /// so the kernel does not answer unread input with a reset that could destroy the reply.
        var draining = false
    }

    init(connection: LineConnection, limits: LineServerLimits) {
        self.connection = connection
        self.socket = connection.socket
        self.idleTimeout = limits.idleTimeout
        self.framer = LineFramer(maxLineLength: limits.maxLineLength)
    }

    /// Serves the connection until it ends, then releases its descriptors.
    ///
    /// - Returns: why it ended; `session.closed` has not been called yet.
    func run(session: any LineSession) -> LineConnection.CloseReason {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { buffer.deallocate() }
        let reason = serve(session: session, buffer: buffer)
        connection.shared.withLock { state in
            state.wake?.close()
            state.wake = nil
            state.queued = []
            state.closeRequest = state.closeRequest ?? reason
            state.closeReason = reason
        }
        socket.close()
        return reason
    }

    private func serve(session: any LineSession, buffer: UnsafeMutableRawBufferPointer) -> LineConnection.CloseReason {
        guard let wake = connection.shared.current.wake else { return .serverStopped }
        while true {
            if let request = takeQueuedOutput() {
                beginClosing(request)
            }
            if let closing, !closing.reason.flushesOutput {
                _ = flush()
                return closing.reason
            }
            if let failure = flush() {
                return failure
            }
            // Lines queued while the previous output was still going out are taken now, not
            // after the next wake-up (which may never come).
            if outgoingOffset >= outgoing.count, !connection.shared.current.queued.isEmpty {
                continue
            }
            if var closing, !closing.draining, outgoing.isEmpty, connection.shared.current.queued.isEmpty {
                socket.shutdownWrite()
                closing.draining = true
                self.closing = closing
            }

            var events = Int16(POLLIN)
            if outgoingOffset < outgoing.count { events |= Int16(POLLOUT) }
            if let closing, !closing.draining { events &= ~Int16(POLLIN) }
            var fds = [
                pollfd(fd: socket.fileDescriptor, events: events, revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = Socket.poll(&fds, fds.count, pollTimeout())
            if ready < 0 {
                if Socket.errno == EINTR { continue }
                return .failed(errno: Socket.errno)
            }
            if ready == 0 {
                if let closing, ContinuousClock.now >= closing.deadline { return closing.reason }
                if closing == nil, let idleTimeout, ContinuousClock.now - lastInput >= idleTimeout {
                    beginClosing(.idleTimeout)
                }
                continue
            }
            if fds[1].revents != 0 {
                wake.drain()
            }
            let input = fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR)
            guard input != 0 else { continue }
            if let closing {
                if closing.draining, drainInput(buffer) { return closing.reason }
                continue
            }
            if let ended = readInput(buffer, session: session) {
                return ended
            }
        }
    }

    /// Moves newly sent lines into the local buffer and reports a pending close request.
    private func takeQueuedOutput() -> LineConnection.CloseReason? {
        let needsMore = outgoingOffset >= outgoing.count
        if needsMore {
            outgoing.removeAll(keepingCapacity: true)
            outgoingOffset = 0
        }
        return connection.shared.withLock { state in
            state.wakePending = false
            if needsMore, !state.queued.isEmpty {
                swap(&outgoing, &state.queued)
            }
            return state.closeRequest
        }
    }

    /// Writes what the socket accepts without blocking.
    ///
    /// - Returns: a close reason if the socket failed.
    private func flush() -> LineConnection.CloseReason? {
        var written = 0
        var failure: LineConnection.CloseReason?
        while outgoingOffset < outgoing.count {
            let result = outgoing.withUnsafeBytes { raw in
                Result { () throws(SocketError) in
                    try socket.write(UnsafeRawBufferPointer(rebasing: raw[outgoingOffset...]))
                }
            }
            switch result {
            case .success(let count):
                outgoingOffset += count
                written += count
                continue
            case .failure(let error) where error.isWouldBlock:
                break
            case .failure(let error):
                failure = .failed(errno: error.errno ?? EIO)
            }
            break
        }
        if written > 0 {
            connection.shared.withLock { $0.unsent -= written }
        }
        return failure
    }

    /// Reads once and hands every complete line to the session.
    ///
    /// - Returns: a close reason when the connection must end now.
    private func readInput(_ buffer: UnsafeMutableRawBufferPointer, session: any LineSession)
        -> LineConnection.CloseReason?
    {
        let count: Int
        do {
            count = try socket.read(into: buffer)
        } catch {
            return error.isWouldBlock ? nil : .failed(errno: error.errno ?? EIO)
        }
        guard count > 0 else {
            // A partial last line is dropped; replies already queued are still flushed,
            // which serves clients that half-close after their request.
            beginClosing(.peerClosed)
            return nil
        }
        lastInput = .now
        framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        // Replies sent while dispatching are picked up by the loop without a wake-up.
        connection.shared.withLock { $0.dispatching = true }
        defer { connection.shared.withLock { $0.dispatching = false } }
        while true {
            let line: [UInt8]?
            do {
                line = try framer.nextLine()
            } catch {
                if let reply = session.lineTooLong(on: connection) {
                    connection.send(reply)
                }
                connection.requestClose(.lineTooLong)
                return nil
            }
            guard let line else { return nil }
            session.received(line: line, on: connection)
            if connection.shared.current.closeRequest != nil { return nil }
        }
    }

    /// Reads and drops input while closing. Returns true once the peer is gone.
    private func drainInput(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        do {
            return try socket.read(into: buffer) == 0
        } catch {
            return !error.isWouldBlock
        }
    }

    private func beginClosing(_ reason: LineConnection.CloseReason) {
        guard closing == nil else { return }
        connection.requestClose(reason)
        // The first request wins, so report whatever the connection actually recorded.
        let recorded = connection.shared.current.closeRequest ?? reason
        closing = Closing(reason: recorded, deadline: .now + Self.lingerTimeout)
    }

    private func pollTimeout() -> Int32 {
        if let closing {
            return PollTimeout.milliseconds(until: closing.deadline)
        }
        if let idleTimeout {
            return PollTimeout.milliseconds(until: lastInput + idleTimeout)
        }
        return -1
    }
}
