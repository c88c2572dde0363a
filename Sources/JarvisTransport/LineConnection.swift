import JarvisCore

/// One client of a `LineServer`, served by the server's readiness loop.
///
/// The handle is safe to keep and use from any thread: `send` queues a line and wakes the
/// server's loop thread, which does all socket I/O. Once the connection is closed, sends are
/// silently dropped, so a notifier holding a stale handle does no harm.
package final class LineConnection: Sendable {
    /// Why a connection ended; the list may grow, so `switch` with a `default`.
    package enum CloseReason: Sendable, Hashable, CustomStringConvertible {
        /// The peer closed its end.
        case peerClosed
        /// `close()` was called.
        case closedLocally
        /// The server was stopped.
        case serverStopped
        /// The peer sent a line longer than `LineServerLimits.maxLineLength`.
        case lineTooLong
        /// Nothing arrived within `LineServerLimits.idleTimeout`.
        case idleTimeout
        /// The peer did not authenticate within `LineServerLimits.authenticationTimeout`.
        case authenticationTimeout
        /// The peer had not authenticated when a newer connection needed its slot (every one of
        /// `LineServerLimits.maxUnauthenticatedConnections` was taken).
        case displaced
        /// The peer had not authenticated while the unauthenticated connections together held
        /// more input than `LineServerLimits.maxUnauthenticatedInputBytes`, and it held the most.
        case pendingInputOverflow
        /// The peer did not read while the server's queued output passed
        /// `LineServerLimits.maxPendingOutputBytes`.
        case outputOverflow
        /// The peer read nothing for `LineServerLimits.outputStallTimeout` while the connection
        /// held `LineServerLimits.outputSoftLimit` or more of its output.
        case outputStalled
        /// The socket failed, e.g. the peer reset the connection; carries `errno`.
        case failed(errno: Int32)

        /// A phrase for logs.
        package var description: String {
            switch self {
            case .peerClosed: "closed by the peer"
            case .closedLocally: "closed by the agent"
            case .serverStopped: "server stopped"
            case .lineTooLong: "request line too long"
            case .idleTimeout: "idle timeout"
            case .authenticationTimeout: "did not authenticate in time"
            case .displaced: "did not authenticate; its slot went to a newer connection"
            case .outputOverflow: "peer stopped reading; too much output queued"
            case .outputStalled: "peer read nothing for too long while its answer waited"
            case .pendingInputOverflow: "sent too much before authenticating"
            case .failed(let code): "socket error: \(Socket.errorMessage(code))"
            }
        }

        /// Whether queued output is still worth flushing before the socket closes.
        var flushesOutput: Bool {
            switch self {
            case .peerClosed, .closedLocally, .lineTooLong: true
            default: false
            }
        }
    }

    /// Unique within the server, increasing; handy in logs.
    package let id: UInt64
    /// The server endpoint the client came in on, which tells Unix from TCP clients.
    package let endpoint: Endpoint
    /// The peer: `address:port` for TCP, process credentials for a Unix socket.
    package let peer: String

    let socket: Socket
    let budget: OutputBudget
    let shared: Locked<Shared>
    /// Tells the server that the connection no longer counts as unauthenticated.
    let onAuthenticated: @Sendable (LineConnection) -> Void

    /// Output in the order it was sent: plain lines, or a producer that makes one line.
    enum Output {
        case bytes([UInt8])
        case stream(StreamedLine)
    }

    /// Where the connection is in its life; it wakes the loop exactly while it is not closed.
    enum Lifecycle {
        case open(wake: LoopWaker)
        /// Someone asked it to end; the loop acts on it.
        case closing(CloseReason, wake: LoopWaker)
        /// The loop has finished with it.
        case closed(CloseReason)
    }

    /// Whether the peer may stay past the authentication deadline.
    enum Trust {
        case trusted
        case unauthenticated(deadline: ContinuousClock.Instant)
    }

    /// State shared between senders and the loop thread.
    struct Shared {
        var lifecycle: Lifecycle
        var trust: Trust
        /// Output sent but not yet taken by the loop.
        var queued: [Output] = []
        /// Bytes counted against the budget, queued or in the thread's hands.
        var unsent = 0
        /// True while the loop has been woken for this connection and has not looked yet.
        var wakePending = false
        /// True while the loop hands received lines to the session: it looks at the queue
        /// right after, so a reply sent from inside the session needs no wake-up (which would
        /// cost a pipe write, an extra wait and two reads per request).
        var dispatching = false

        /// The reason the connection is ending or ended, if it is.
        var closeRequest: CloseReason? {
            switch lifecycle {
            case .open: nil
            case .closing(let reason, _), .closed(let reason): reason
            }
        }

        var wake: LoopWaker? {
            switch lifecycle {
            case .open(let wake), .closing(_, let wake): wake
            case .closed: nil
            }
        }
    }

    init(
        id: UInt64, endpoint: Endpoint, peer: String, socket: Socket, wake: LoopWaker, budget: OutputBudget,
        trust: Trust, onAuthenticated: @escaping @Sendable (LineConnection) -> Void
    ) {
        self.id = id
        self.endpoint = endpoint
        self.peer = peer
        self.socket = socket
        self.budget = budget
        self.onAuthenticated = onAuthenticated
        self.shared = Locked(Shared(lifecycle: .open(wake: wake), trust: trust))
    }

    /// Queues `line` plus `\n` for the peer. Thread-safe and never blocks.
    ///
    /// If the server's queued output would pass `maxPendingOutputBytes` while this peer
    /// already has answers waiting, or `line` alone is larger than a connection's allowance
    /// and does not fit in what is left, the connection is dropped instead
    /// (`CloseReason.outputOverflow`): a stuck debugger must not grow the host app's memory
    /// without bound. Answers pass a refusal (``send(_:refusal:)``) so that their client is
    /// told instead.
    package func send(_ line: consuming [UInt8]) {
        send(line, refusal: nil)
    }

    /// Queues `line` plus `\n` as ``send(_:)`` does; but when `line` is larger than what the
    /// output budget can still hold, queues `refusal(size, limit)` instead (a short error
    /// for the peer, given the line's size and the budget's limit in bytes) and the
    /// connection stays open. Thread-safe and never blocks.
    package func send(_ line: consuming [UInt8], refusal: ((_ size: Int, _ limit: Int) -> [UInt8])?) {
        // Taken over, not copied: the newline goes on the caller's own buffer.
        var line = line
        line.append(0x0A)
        shared.withLock { state in
            guard case .open = state.lifecycle else { return }
            if !budget.reserve(line.count, holding: state.unsent) {
                guard let refusal, line.count > budget.allowance else { return overflow(&state) }
                line = refusal(line.count - 1, budget.limit)
                line.append(0x0A)
                guard budget.reserve(line.count, holding: state.unsent) else { return overflow(&state) }
            }
            state.unsent += line.count
            if case .bytes = state.queued.last, case .bytes(var bytes) = state.queued.removeLast() {
                bytes.append(contentsOf: line)
                state.queued.append(.bytes(bytes))
            } else {
                state.queued.append(.bytes(line))
            }
            wake(&state)
        }
    }

    /// Queues `bytes` as they are, with no `\n` (an HTTP response, a server-sent event), as
    /// ``send(_:)`` queues a line. Thread-safe and never blocks.
    package func send(raw bytes: [UInt8]) {
        shared.withLock { state in
            guard case .open = state.lifecycle else { return }
            guard budget.reserve(bytes.count, holding: state.unsent) else { return overflow(&state) }
            state.unsent += bytes.count
            state.queued.append(.bytes(bytes))
            wake(&state)
        }
    }

    /// Queues a line made piece by piece as the peer reads it (see ``LineProducer``), after
    /// everything sent before and before everything sent after. Thread-safe and never blocks.
    ///
    /// The pieces are made on `lane` (never on the loop thread), one step at a time once the
    /// line's turn came, each step within `stepTimeout` (see ``StreamedLine``).
    /// Until it starts, a queued stream counts as one chunk against the output budget, so a
    /// client that sends requests without reading the answers is dropped like one whose
    /// queued lines pass the budget.
    ///
    /// - Parameter group: the storage the steps may wait on (see ``WorkLane/submit(group:_:)``).
    package func send(producing producer: some LineProducer, on lane: WorkLane, group: String?, stepTimeout: Duration) {
        let line = StreamedLine(
            producer: producer, lane: lane, group: group, stepTimeout: stepTimeout,
            chunkSize: LineConnectionWorker.chunkSize
        ) { [weak self] in self?.wakeLoop() }
        shared.withLock { state in
            guard case .open = state.lifecycle else { return }
            guard budget.reserve(Self.queuedStreamCost, holding: state.unsent) else {
                overflow(&state)
                return
            }
            state.unsent += Self.queuedStreamCost
            state.queued.append(.stream(line))
            wake(&state)
        }
    }

    /// Asks the loop to look at the connection (a streamed piece is ready).
    func wakeLoop() {
        shared.withLock { wake(&$0) }
    }

    /// What a streamed line waiting its turn counts against the budget.
    static let queuedStreamCost = LineConnectionWorker.chunkSize

    /// Lets the connection stay past `LineServerLimits.authenticationTimeout` and frees its
    /// unauthenticated slot; call it once the peer proved who it is. Idempotent.
    package func authenticated() {
        let changed = shared.withLock { state -> Bool in
            guard case .unauthenticated = state.trust else { return false }
            state.trust = .trusted
            return true
        }
        if changed { onAuthenticated(self) }
    }

    /// Whether the peer still has to authenticate.
    package var isAuthenticated: Bool {
        if case .trusted = shared.withLock({ $0.trust }) { return true }
        return false
    }

    /// Closes the connection after flushing what was already sent (for at most a couple of
    /// seconds); returns at once. Idempotent.
    package func close() {
        requestClose(.closedLocally)
    }

    /// Tells the loop that the session takes lines again, after it answered false to
    /// ``LineSession/acceptsInput(on:)``. Thread-safe and never blocks.
    package func resumeInput() {
        shared.withLock { wake(&$0) }
    }

    /// Why the connection ended, or nil while it is open.
    package var closeReason: CloseReason? {
        if case .closed(let reason) = shared.current.lifecycle { return reason }
        return nil
    }

    /// Asks the loop to end the connection; the first reason wins.
    func requestClose(_ reason: CloseReason) {
        shared.withLock { state in
            guard case .open(let waker) = state.lifecycle else { return }
            state.lifecycle = .closing(reason, wake: waker)
            self.wake(&state)
        }
    }

    private func overflow(_ state: inout Shared) {
        guard case .open(let waker) = state.lifecycle else { return }
        state.lifecycle = .closing(.outputOverflow, wake: waker)
        // Queued lines are never sent now; their bytes go back to the budget at once.
        var dropped = 0
        for output in state.queued {
            switch output {
            case .bytes(let bytes): dropped += bytes.count
            case .stream: dropped += Self.queuedStreamCost
            }
        }
        state.queued = []
        state.unsent -= dropped
        budget.release(dropped)
        self.wake(&state)
    }

    private func wake(_ state: inout Shared) {
        guard !state.wakePending, !state.dispatching, let wake = state.wake else { return }
        state.wakePending = true
        wake.wake(id)
    }
}
