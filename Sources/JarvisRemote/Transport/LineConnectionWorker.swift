#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loop that runs on a connection's own thread and does all of its socket I/O.
///
/// It sleeps in `poll` on the socket and the connection's wake pipe, with no timeout unless
/// an idle timeout, an authentication deadline or a closing deadline applies, so an idle
/// connection costs no CPU. Writes are non-blocking from a local buffer of at most about one
/// chunk; `POLLOUT` is requested only while it is non-empty, and a streamed line's next chunk
/// is made only once the socket took the previous one; streamed lines waiting their turn
/// count against the output budget, so a client that never reads is dropped.
/// Not `Sendable`: it is created on the thread that runs it and never leaves it.
final class LineConnectionWorker {
    private let connection: LineConnection
    private let socket: Socket
    private let idleTimeout: Duration?
    private var framer: LineFramer
    /// Output taken from the connection, in order, not yet in `outgoing`.
    private var pending: [LineConnection.Output] = []
    private var pendingStart = 0
    /// The streamed line being made, if any.
    private var stream: (any LineProducer)?
    private var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    private var lastActivity = ContinuousClock.now
    private var phase = Phase.serving

    /// How long a graceful close may spend flushing replies and draining input.
    static let lingerTimeout: Duration = .seconds(2)
    /// About how many bytes of a streamed line are made at a time.
    static let chunkSize = 64 * 1024
    private static let readSize = 64 * 1024

    private enum Phase {
        case serving
        /// Sending what is queued before closing.
        case flushing(LineConnection.CloseReason, deadline: ContinuousClock.Instant)
        /// After the output is flushed the write side is shut and input is read and dropped,
        /// so the kernel does not answer unread input with a reset that could destroy the reply.
        case draining(LineConnection.CloseReason, deadline: ContinuousClock.Instant)

        var reason: LineConnection.CloseReason? {
            switch self {
            case .serving: nil
            case .flushing(let reason, _), .draining(let reason, _): reason
            }
        }

        var deadline: ContinuousClock.Instant? {
            switch self {
            case .serving: nil
            case .flushing(_, let deadline), .draining(_, let deadline): deadline
            }
        }
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
        let unsent = connection.shared.withLock { state -> Int in
            state.wake?.close()
            state.lifecycle = .closed(state.closeRequest ?? reason)
            state.queued = []
            defer { state.unsent = 0 }
            return state.unsent
        }
        connection.budget.release(unsent)
        pending = []
        stream = nil
        socket.close()
        return connection.shared.current.closeRequest ?? reason
    }

    private func serve(session: any LineSession, buffer: UnsafeMutableRawBufferPointer) -> LineConnection.CloseReason {
        guard let wake = connection.shared.current.wake else { return .serverStopped }
        while true {
            if let request = takeQueuedOutput() {
                beginClosing(request)
            }
            if let reason = phase.reason, !reason.flushesOutput {
                _ = flush()
                return reason
            }
            fillOutgoing()
            if let failure = flush() {
                return failure
            }
            let drained = outgoingOffset >= outgoing.count
            // More output is ready and the socket took everything: make the next chunk now,
            // not after a wake-up that may never come.
            if drained, hasMoreOutput || !connection.shared.current.queued.isEmpty {
                continue
            }
            if case .flushing(let reason, let deadline) = phase, drained {
                socket.shutdownWrite()
                phase = .draining(reason, deadline: deadline)
            }

            var events = Int16(0)
            switch phase {
            case .serving, .draining: events |= Int16(POLLIN)
            case .flushing: break
            }
            if !drained { events |= Int16(POLLOUT) }
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
                if let deadline = phase.deadline, let reason = phase.reason, ContinuousClock.now >= deadline {
                    return reason
                }
                checkDeadlines()
                continue
            }
            if fds[1].revents != 0 {
                wake.drain()
            }
            let input = fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR)
            guard input != 0 else { continue }
            switch phase {
            case .draining(let reason, _):
                if drainInput(buffer) { return reason }
            case .flushing:
                continue
            case .serving:
                if let ended = readInput(buffer, session: session) {
                    return ended
                }
            }
        }
    }

    private var hasMoreOutput: Bool {
        stream != nil || pendingStart < pending.count
    }

    /// Moves newly sent output to the local queue and reports a pending close request.
    private func takeQueuedOutput() -> LineConnection.CloseReason? {
        connection.shared.withLock { state in
            state.wakePending = false
            if !state.queued.isEmpty {
                if pendingStart >= pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingStart = 0
                }
                if pending.isEmpty {
                    swap(&pending, &state.queued)
                } else {
                    pending.append(contentsOf: state.queued)
                    state.queued.removeAll(keepingCapacity: true)
                }
            }
            return state.closeRequest
        }
    }

    /// Once the socket took everything, refills `outgoing` with up to about a chunk of queued
    /// lines and streamed pieces, in order.
    private func fillOutgoing() {
        guard outgoingOffset >= outgoing.count else { return }
        outgoing.removeAll(keepingCapacity: outgoing.capacity <= 2 * Self.chunkSize)
        outgoingOffset = 0
        var produced = 0
        while outgoing.count < Self.chunkSize {
            if var producer = stream {
                let before = outgoing.count
                stream = nil
                let done = producer.produce(into: &outgoing, size: Self.chunkSize - outgoing.count)
                if done {
                    outgoing.append(0x0A)
                } else {
                    stream = producer
                }
                produced += outgoing.count - before
                continue
            }
            guard pendingStart < pending.count else { break }
            let next = pending[pendingStart]
            pending[pendingStart] = .bytes([])
            pendingStart += 1
            switch next {
            case .bytes(let bytes) where outgoing.isEmpty:
                outgoing = bytes
            case .bytes(let bytes):
                outgoing.append(contentsOf: bytes)
            case .stream(let producer):
                stream = producer
                // It is being made now: its bytes count as they are produced instead.
                connection.budget.release(LineConnection.queuedStreamCost)
                connection.shared.withLock { $0.unsent -= LineConnection.queuedStreamCost }
            }
        }
        if produced > 0 {
            // Streamed bytes are counted once made; the peer is keeping up, so never refused.
            _ = connection.budget.reserve(produced, holding: 0)
            connection.shared.withLock { $0.unsent += produced }
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
            lastActivity = .now
            connection.shared.withLock { $0.unsent -= written }
            connection.budget.release(written)
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
        lastActivity = .now
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
        guard case .serving = phase else { return }
        connection.requestClose(reason)
        // The first request wins, so report whatever the connection actually recorded.
        let recorded = connection.shared.current.closeRequest ?? reason
        phase = .flushing(recorded, deadline: .now + Self.lingerTimeout)
    }

    /// Ends a connection whose idle time or authentication deadline has passed.
    private func checkDeadlines() {
        guard case .serving = phase else { return }
        let now = ContinuousClock.now
        if case .unauthenticated(let deadline) = connection.shared.current.trust, now >= deadline {
            beginClosing(.authenticationTimeout)
        } else if let idleTimeout, now - lastActivity >= idleTimeout {
            beginClosing(.idleTimeout)
        }
    }

    private func pollTimeout() -> Int32 {
        if let deadline = phase.deadline {
            return PollTimeout.milliseconds(until: deadline)
        }
        var next: ContinuousClock.Instant?
        if let idleTimeout { next = lastActivity + idleTimeout }
        if case .unauthenticated(let deadline) = connection.shared.current.trust {
            next = min(next ?? deadline, deadline)
        }
        return next.map { PollTimeout.milliseconds(until: $0) } ?? -1
    }
}
