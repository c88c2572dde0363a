import Dispatch
import Foundation
import JarvisCore

/// Serves line-delimited connections on Unix and TCP endpoints for the agent inside a host app.
///
/// Threading: one accept thread for all endpoints plus one thread per connection, all
/// Foundation `Thread`s: never the main thread and never the Swift concurrency pool, which must
/// not be blocked by I/O. Every thread sleeps in `poll` with a wake pipe and no timeout unless
/// an idle timeout is set, so an idle server uses no CPU. Call `stop()` before dropping the
/// server: its threads keep it alive until then.
package final class LineServer: Sendable {
    /// The endpoints asked for; see `boundEndpoints` for the real TCP ports.
    package let endpoints: [Endpoint]
    /// The limits applied to every connection.
    package let limits: LineServerLimits
    /// Sent (plus `\n`) to a client refused because `maxConnections` are being served.
    package let refusalLine: [UInt8]?

    let makeSession: @Sendable (LineConnection) -> any LineSession
    let state = Locked(State())
    /// Output queued for all of this server's connections together.
    let budget: OutputBudget

    /// How long `stop()` waits for threads to finish before returning anyway.
    static let stopTimeout: Duration = .seconds(2)

    struct State {
        var phase = Phase.idle
        var connections: [UInt64: Served] = [:]
        /// Connections that have not authenticated yet (only with an authentication timeout).
        var unauthenticated: Set<UInt64> = []
        var nextID: UInt64 = 1

        var isRunning: Bool {
            if case .running = phase { return true }
            return false
        }
    }

    /// The server's life; what exists only while running lives in its payload.
    enum Phase {
        case idle
        /// `start()` is binding the endpoints.
        case starting
        case running(Running)
        case stopped(boundEndpoints: [Endpoint])
    }

    struct Running {
        var listeners: [Listener]
        var boundEndpoints: [Endpoint]
        var acceptor: Acceptor
    }

    /// The accept thread: while it waits, `stop()` wakes it through its pipe; once it ended,
    /// the pipe is closed and must never be signalled again.
    enum Acceptor {
        case waiting(wake: WakePipe, done: DispatchSemaphore)
        case ended(done: DispatchSemaphore)

        var done: DispatchSemaphore {
            switch self {
            case .waiting(_, let done), .ended(let done): done
            }
        }
    }

    struct Listener: Sendable {
        var socket: Socket
        var endpoint: Endpoint
        /// The socket file created for a Unix endpoint, removed on stop if still ours.
        var socketFile: (path: String, identity: FileStatus)?
    }

    /// One connection being served, and the thread that serves it once it started.
    struct Served {
        var connection: LineConnection
        var thread: ObjectIdentifier?
        var done = DispatchSemaphore(value: 0)
    }

    /// Creates a server; nothing is bound until `start()`.
    ///
    /// - Parameters:
    ///   - refusalLine: sent to clients over `limits.maxConnections` before closing them.
    ///   - budget: output budget shared with other servers; by default one of
    ///     `limits.maxPendingOutputBytes` for this server alone.
    ///   - makeSession: called on each new connection's own thread before its first line.
    package init(
        endpoints: [Endpoint],
        limits: LineServerLimits = LineServerLimits(),
        refusalLine: [UInt8]? = nil,
        budget: OutputBudget? = nil,
        makeSession: @escaping @Sendable (LineConnection) -> any LineSession
    ) {
        self.endpoints = endpoints
        self.limits = limits
        self.refusalLine = refusalLine
        self.makeSession = makeSession
        self.budget = budget ?? OutputBudget(limit: limits.maxPendingOutputBytes)
    }

    /// Binds every endpoint and starts accepting on a background thread; returns once listening.
    ///
    /// - Throws: `SocketError` if any endpoint cannot be bound (nothing stays bound then), or
    ///   if the server was already started.
    package func start() throws(SocketError) {
        let fresh = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            state.phase = .starting
            return true
        }
        guard fresh else {
            throw SocketError(operation: "start", detail: "a server starts only once; create a new one")
        }
        var listeners: [Listener] = []
        let wake: WakePipe
        do throws(SocketError) {
            for endpoint in endpoints {
                let socket = try Socket.listen(on: endpoint)
                var listener = Listener(socket: socket, endpoint: endpoint)
                if case .unix(let path) = endpoint, let identity = Socket.socketFileIdentity(at: path) {
                    listener.socketFile = (path, identity)
                }
                listeners.append(listener)
            }
            wake = try WakePipe.make()
        } catch {
            Self.release(listeners)
            state.withLock { state in
                if case .starting = state.phase { state.phase = .idle }
            }
            throw error
        }
        let done = DispatchSemaphore(value: 0)
        let started = state.withLock { state -> Bool in
            guard case .starting = state.phase else { return false }
            state.phase = .running(
                Running(
                    listeners: listeners, boundEndpoints: listeners.map(\.boundEndpoint),
                    acceptor: .waiting(wake: wake, done: done)))
            return true
        }
        guard started else {
            // `stop()` ran meanwhile.
            Self.release(listeners)
            wake.close()
            throw SocketError(operation: "start", detail: "the server was stopped while starting")
        }
        let thread = Thread { [self, listeners] in
            acceptLoop(listeners: listeners, wake: wake)
            done.signal()
        }
        thread.name = "jarvis-accept"
        thread.start()
    }

    /// The endpoints actually listening, with the real port where port 0 was asked for.
    package var boundEndpoints: [Endpoint] {
        switch state.current.phase {
        case .idle, .starting: []
        case .running(let running): running.boundEndpoints
        case .stopped(let endpoints): endpoints
        }
    }

    /// Connections currently being served.
    package var connectionCount: Int {
        state.current.connections.count
    }

    /// Connections that have not authenticated yet.
    package var unauthenticatedCount: Int {
        state.current.unauthenticated.count
    }

    /// Stops accepting, closes every connection (without waiting for slow peers) and removes
    /// the Unix socket files this server created.
    ///
    /// Idempotent and safe from any thread, including inside a session callback. Waits up to
    /// two seconds for the server's threads, so that when it returns descriptors are released
    /// and `closed` has been called for every session, unless a session callback is stuck.
    package func stop() {
        let me = ObjectIdentifier(Thread.current)
        let snapshot = state.withLock { state -> (Running, [LineConnection], [DispatchSemaphore])? in
            guard case .running(let running) = state.phase else {
                if case .stopped = state.phase {} else { state.phase = .stopped(boundEndpoints: []) }
                return nil
            }
            state.phase = .stopped(boundEndpoints: running.boundEndpoints)
            if case .waiting(let wake, _) = running.acceptor { wake.signal() }
            let served = Array(state.connections.values)
            return (running, served.map(\.connection), served.filter { $0.thread != me }.map(\.done))
        }
        guard let (stopped, connections, waits) = snapshot else { return }
        for listener in stopped.listeners {
            if let file = listener.socketFile {
                Socket.removeSocketFile(at: file.path, ifStill: file.identity)
            }
        }
        for connection in connections {
            connection.requestClose(.serverStopped)
        }
        let deadline = DispatchTime.now() + .milliseconds(Int(PollTimeout.milliseconds(Self.stopTimeout)))
        _ = stopped.acceptor.done.wait(timeout: deadline)
        for done in waits {
            _ = done.wait(timeout: deadline)
        }
    }

    static func release(_ listeners: [Listener]) {
        for listener in listeners {
            listener.socket.close()
            if let file = listener.socketFile {
                Socket.removeSocketFile(at: file.path, ifStill: file.identity)
            }
        }
    }
}

extension LineServer.Listener {
    /// The endpoint with the port the system chose when port 0 was asked for.
    var boundEndpoint: Endpoint {
        guard case .tcp(let host, 0) = endpoint, let port = socket.boundPort else { return endpoint }
        return .tcp(host: host, port: port)
    }
}
