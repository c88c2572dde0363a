import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LineServer {
    /// Runs on the accept thread: waits on every listener and the wake pipe with no timeout.
    func acceptLoop(listeners: [Listener], wake: WakePipe) {
        var fds = listeners.map { pollfd(fd: $0.socket.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        fds.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0))
        while state.withLock({ $0.isRunning }) {
            for index in fds.indices { fds[index].revents = 0 }
            let ready = Socket.poll(&fds, fds.count, -1)
            if ready < 0 {
                if Socket.errno == EINTR { continue }
                break
            }
            if fds[listeners.count].revents != 0 { wake.drain() }
            for (index, listener) in listeners.enumerated() where fds[index].revents != 0 {
                acceptPending(on: listener)
            }
        }
        for listener in listeners {
            listener.socket.close()
        }
        // Under the lock: `stop()` signals the pipe only while the acceptor is waiting.
        state.withLock { state in
            if case .running(var running) = state.phase {
                running.acceptor = .ended(done: running.acceptor.done)
                state.phase = .running(running)
            }
            wake.close()
        }
    }

    /// Accepts every connection waiting on `listener`.
    private func acceptPending(on listener: Listener) {
        while state.withLock({ $0.isRunning }) {
            let client: Socket
            let peer: String
            do {
                (client, peer) = try listener.socket.accept()
            } catch {
                switch error.errno {
                case ECONNABORTED?:
                    continue
                case EMFILE?, ENFILE?, ENOBUFS?, ENOMEM?:
                    // The listener stays readable, so without a pause this thread would spin
                    // until a descriptor frees up.
                    Thread.sleep(forTimeInterval: 0.1)
                    return
                default:
                    return
                }
            }
            admit(client, peer: peer, endpoint: listener.endpoint)
        }
    }

    /// Registers a new client and starts its thread, or refuses it when the server is full.
    private func admit(_ client: Socket, peer: String, endpoint: Endpoint) {
        let wake: WakePipe
        do {
            try client.setNonBlocking()
            wake = try WakePipe.make()
        } catch {
            client.close()
            return
        }
        let limits = limits
        let deadline = limits.authenticationTimeout.map { ContinuousClock.now + $0 }
        let admitted = admitWhenASlotFrees { state -> Admission in
            guard state.isRunning else { return .stopped }
            guard state.connections.count < limits.maxConnections else { return .full }
            var displaced: LineConnection?
            if deadline != nil, state.unauthenticated.count >= limits.unauthenticatedSlots,
                let oldest = state.unauthenticated.min()
            {
                // Every unauthenticated slot is taken: the connection that had the most time
                // to authenticate makes room, so silent connections never lock a client out.
                state.unauthenticated.remove(oldest)
                displaced = state.connections[oldest]?.connection
            }
            let id = state.nextID
            state.nextID += 1
            let connection = LineConnection(
                id: id, endpoint: endpoint, peer: peer, socket: client, wake: wake, budget: budget,
                trust: deadline.map { .unauthenticated(deadline: $0) } ?? .trusted,
                onAuthenticated: { [weak self] connection in
                    self?.state.withLock { _ = $0.unauthenticated.remove(connection.id) }
                })
            state.connections[id] = Served(connection: connection)
            if deadline != nil { state.unauthenticated.insert(id) }
            return .admitted(connection, displaced: displaced)
        }
        guard case .admitted(let connection, let displaced) = admitted else {
            wake.close()
            refuse(client)
            return
        }
        displaced?.requestClose(.displaced)
        let thread = Thread { [self] in
            serve(connection)
        }
        thread.name = "jarvis-connection-\(connection.id)"
        thread.start()
    }

    /// What admitting one client came to.
    enum Admission: Sendable {
        case admitted(LineConnection, displaced: LineConnection?)
        case full
        case stopped
    }

    /// How long a client waits for a slot before it is refused.
    ///
    /// A connection keeps its slot until its own thread has seen the peer go and finished, so
    /// under CPU load a burst of clients that connect and hang up at once can hold every slot
    /// while nobody is really served; refusing then would lock out a live client. Waiting a
    /// moment lets those threads run; a server that is really full still refuses.
    static let slotGrace: Duration = .seconds(1)

    /// Runs `admit` under the lock, again every few milliseconds while the server is full,
    /// until it admits or `slotGrace` has passed.
    private func admitWhenASlotFrees(_ admit: (inout State) -> Admission) -> Admission {
        let deadline = ContinuousClock.now + Self.slotGrace
        while true {
            let admission = state.withLock { admit(&$0) }
            guard case .full = admission, ContinuousClock.now < deadline else { return admission }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Sends the refusal line if the socket takes it at once, then closes.
    private func refuse(_ client: Socket) {
        if let refusalLine {
            _ = try? client.writeAll(refusalLine + [0x0A], timeout: .milliseconds(100))
        }
        client.close()
    }

    /// Runs on a connection's own thread from its first line to `session.closed`.
    private func serve(_ connection: LineConnection) {
        state.withLock { $0.connections[connection.id]?.thread = ObjectIdentifier(Thread.current) }
        let session = makeSession(connection)
        let worker = LineConnectionWorker(connection: connection, limits: limits)
        _ = worker.run(session: session)
        let finished = state.withLock { state -> Served? in
            state.unauthenticated.remove(connection.id)
            return state.connections.removeValue(forKey: connection.id)
        }
        session.closed(connection)
        finished?.done.signal()
    }
}
