import Dispatch
import Foundation
import JarvisCore

/// Serves line-delimited connections on Unix and TCP endpoints for the agent inside a host app.
///
/// Threading: one thread for all endpoints and all connections, a readiness loop
/// (``EventQueue``: epoll on Linux, kqueue on Apple platforms) that accepts, reads, hands each
/// request to its session and writes the answer on that same thread. It is a Foundation
/// `Thread`: never the main thread and never the Swift concurrency pool, which must not be
/// blocked by I/O. It sleeps with no timeout unless a deadline applies (idle timeout,
/// authentication, a closing connection), so an idle server uses no CPU, and 64 idle clients
/// cost 64 descriptors, not 64 threads. A session answers on the loop only what costs no
/// waiting and hands the rest to a ``WorkPool``; each turn writes at most 64 KiB per
/// connection, so one fast reader of a long answer delays no other connection. Call `stop()` before dropping the server: its thread
/// keeps it alive until then.
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
        var connections: [UInt64: LineConnection] = [:]
        /// Connections that have not authenticated yet (only with an authentication timeout),
        /// with when each arrived.
        var unauthenticated: [UInt64: ContinuousClock.Instant] = [:]
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
        /// Wakes the loop; ignores wake-ups once the loop ended.
        var waker: LoopWaker
        /// Signalled when the loop thread has released everything.
        var done: DispatchSemaphore
        /// The loop thread, so that `stop()` from inside a session does not wait for itself.
        var thread: ObjectIdentifier?
    }

    struct Listener: Sendable {
        var socket: Socket
        var endpoint: Endpoint
        /// The socket file created for a Unix endpoint, removed on stop if still ours.
        var socketFile: (path: String, identity: FileStatus)?
    }

    /// Creates a server; nothing is bound until `start()`.
    ///
    /// - Parameters:
    ///   - refusalLine: sent to clients over `limits.maxConnections` before closing them.
    ///   - budget: output budget shared with other servers; by default one of
    ///     `limits.maxPendingOutputBytes` for this server alone.
    ///   - makeSession: called on the loop thread for each new connection, before its first line.
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

    /// Binds every endpoint and starts the loop on a thread of its own; returns once listening.
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
        let waker: LoopWaker
        let queue: any EventQueue
        do throws(SocketError) {
            for endpoint in endpoints {
                let socket = try Socket.listen(on: endpoint, backlog: limits.backlog)
                var listener = Listener(socket: socket, endpoint: endpoint)
                if case .unix(let path) = endpoint, let identity = Socket.socketFileIdentity(at: path) {
                    listener.socketFile = (path, identity)
                }
                listeners.append(listener)
            }
            for listener in listeners { try listener.socket.setNonBlocking() }
            queue = try makeEventQueue()
            do throws(SocketError) {
                waker = try LoopWaker()
                do throws(SocketError) {
                    for listener in listeners { try queue.add(listener.socket.fileDescriptor, interest: .read) }
                    try queue.add(waker.readEnd, interest: .read)
                } catch {
                    waker.close()
                    throw error
                }
            } catch {
                queue.close()
                throw error
            }
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
                    listeners: listeners, boundEndpoints: listeners.map(\.boundEndpoint), waker: waker, done: done))
            return true
        }
        guard started else {
            // `stop()` ran meanwhile.
            Self.release(listeners)
            waker.close()
            queue.close()
            throw SocketError(operation: "start", detail: "the server was stopped while starting")
        }
        // The loop is not `Sendable`: it is handed, once, to the thread that alone uses it.
        let loop = Handoff([LineServerLoop(server: self, queue: queue, waker: waker, listeners: listeners)])
        let thread = Thread { [self] in
            state.withLock { state in
                if case .running(var running) = state.phase {
                    running.thread = ObjectIdentifier(Thread.current)
                    state.phase = .running(running)
                }
            }
            loop.take(0)?.run()
            done.signal()
        }
        thread.name = "jarvis-server"
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
        let snapshot = state.withLock { state -> Running? in
            guard case .running(let running) = state.phase else {
                if case .stopped = state.phase {} else { state.phase = .stopped(boundEndpoints: []) }
                return nil
            }
            state.phase = .stopped(boundEndpoints: running.boundEndpoints)
            return running
        }
        guard let stopped = snapshot else { return }
        for listener in stopped.listeners {
            if let file = listener.socketFile {
                Socket.removeSocketFile(at: file.path, ifStill: file.identity)
            }
        }
        // The loop sees the phase, ends every connection and releases the descriptors.
        stopped.waker.wake(nil)
        guard stopped.thread != me else { return }
        let deadline = DispatchTime.now() + .milliseconds(Int(PollTimeout.milliseconds(Self.stopTimeout)))
        _ = stopped.done.wait(timeout: deadline)
    }

    /// What admitting one client came to.
    enum Admission: Sendable {
        case admitted(LineConnection)
        case full
        case stopped
    }

    /// How long a client waits for a slot before it is refused.
    ///
    /// Under CPU load a burst of clients that connect and hang up at once can hold every slot
    /// until the loop has seen them go; refusing then would lock out a live client. Waiting a
    /// moment lets the loop catch up; a server that is really full still refuses.
    static let slotGrace: Duration = .seconds(1)

    /// Sends the refusal line if the socket takes it at once, then closes.
    func refuse(_ client: Socket) {
        if let refusalLine {
            _ = try? client.writeAll(refusalLine + [0x0A], timeout: .milliseconds(100))
        }
        client.close()
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
