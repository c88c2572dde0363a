import JarvisCore

/// One client of a `LineServer`, served by its own thread.
///
/// The handle is safe to keep and use from any thread: `send` queues a line and wakes the
/// connection's thread, which does all socket I/O. Once the connection is closed, sends are
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
        /// The peer did not read and queued output passed `LineServerLimits.maxPendingOutputBytes`.
        case outputOverflow
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
            case .outputOverflow: "peer stopped reading; too much output queued"
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
    let maxPendingOutputBytes: Int
    let shared: Locked<Shared>

    /// State shared between senders and the connection's thread.
    struct Shared {
        /// Lines sent but not yet taken by the connection's thread.
        var queued: [UInt8] = []
        /// Bytes sent but not yet written to the socket, queued or in the thread's hands.
        var unsent = 0
        /// Set when someone asked the connection to end; the thread acts on it.
        var closeRequest: CloseReason?
        /// Set once the thread has finished.
        var closeReason: CloseReason?
        /// True while a wake-up byte is already in the pipe, so bursts of sends write one byte.
        var wakePending = false
        /// True while the worker thread hands received lines to the session: it looks at the
        /// queue right after, so a reply sent from inside the session needs no wake-up (which
        /// would cost a pipe write, an extra poll and two reads per request).
        var dispatching = false
        /// Nil once the thread has closed it; guarded by the lock so nobody signals a closed pipe.
        var wake: WakePipe?
    }

    init(id: UInt64, endpoint: Endpoint, peer: String, socket: Socket, wake: WakePipe, maxPendingOutputBytes: Int) {
        self.id = id
        self.endpoint = endpoint
        self.peer = peer
        self.socket = socket
        self.maxPendingOutputBytes = maxPendingOutputBytes
        self.shared = Locked(Shared(wake: wake))
    }

    /// Queues `line` plus `\n` for the peer. Thread-safe and never blocks.
    ///
    /// If the peer is not reading and the queue would pass `maxPendingOutputBytes`, the
    /// connection is dropped instead (`CloseReason.outputOverflow`): a stuck debugger must not
    /// grow the host app's memory without bound.
    package func send(_ line: [UInt8]) {
        shared.withLock { state in
            guard state.closeRequest == nil, state.wake != nil else { return }
            let size = line.count + 1
            guard state.unsent + size <= maxPendingOutputBytes else {
                state.closeRequest = .outputOverflow
                state.queued = []
                Self.wake(&state)
                return
            }
            state.queued.append(contentsOf: line)
            state.queued.append(0x0A)
            state.unsent += size
            Self.wake(&state)
        }
    }

    /// Closes the connection after flushing what was already sent (for at most a couple of
    /// seconds); returns at once. Idempotent.
    package func close() {
        requestClose(.closedLocally)
    }

    /// Why the connection ended, or nil while it is open.
    package var closeReason: CloseReason? {
        shared.current.closeReason
    }

    /// Asks the connection's thread to end; the first reason wins.
    func requestClose(_ reason: CloseReason) {
        shared.withLock { state in
            guard state.closeRequest == nil else { return }
            state.closeRequest = reason
            Self.wake(&state)
        }
    }

    private static func wake(_ state: inout Shared) {
        guard !state.wakePending, !state.dispatching, let wake = state.wake else { return }
        state.wakePending = true
        wake.signal()
    }
}
