import Foundation
import JarvisCore
import JarvisSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The readiness loop: one thread per server that accepts, reads, answers and writes for every
/// connection, sleeping in one `wait` of its ``EventQueue`` between events.
///
/// Not `Sendable`: created on the loop thread, it never leaves it (the compiler keeps it
/// there). Other threads reach it only through the server's locked state and its
/// ``LoopWaker``.
final class LineServerLoop {
    private let server: LineServer
    private let queue: any EventQueue
    private let waker: LoopWaker
    private let listeners: [LineServer.Listener]
    private var workers: [UInt64: LineConnectionWorker] = [:]
    /// Connections by socket descriptor (unique while the socket is open).
    private var byDescriptor: [Int32: LineConnectionWorker] = [:]
    private let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: LineConnectionWorker.readSize, alignment: 16)
    /// While the server is full, listeners are not watched until a slot frees or this passes;
    /// then waiting clients are accepted and refused.
    private var pausedUntil: ContinuousClock.Instant?
    /// The turn's ready descriptors, in storage kept from turn to turn.
    private var events: [ReadyEvent] = []
    /// The clock as read once per turn, shared with the workers.
    private let time = LoopTime()

    init(server: LineServer, queue: any EventQueue, waker: LoopWaker, listeners: [LineServer.Listener]) {
        self.server = server
        self.queue = queue
        self.waker = waker
        self.listeners = listeners
    }

    deinit {
        buffer.deallocate()
    }

    /// Runs until the server stops, then ends every connection and releases every descriptor.
    func run() {
        var nearest: ContinuousClock.Instant?
        while server.state.withLock({ $0.isRunning }) {
            do {
                nearest = nearestDeadline()
                try queue.wait(timeout: nearest.map { PollTimeout.milliseconds(until: $0) } ?? -1, into: &events)
            } catch {
                // Only a broken queue gets here (EBADF, EINVAL); nothing can be served.
                break
            }
            time.tick()
            var listenerReady = false
            var woken = false
            // Every ready request is read before any is answered, and the file system's change
            // notifications are read in between: each answer then follows every change made
            // before its request was sent, with one check of them per turn.
            var readAny = false
            for event in events where event.readable || event.hangup {
                guard let worker = byDescriptor[event.descriptor] else { continue }
                readAny = true
                worker.readAhead(buffer)
            }
            // Stands for the requests just read, and is passed with them alone.
            let checkpoint = readAny ? ChangeCheckpoint.pass() : .none
            if readAny { enforceUnauthenticatedInputBudget() }
            held.removeAll(keepingCapacity: true)
            for event in events {
                if event.descriptor == waker.readEnd {
                    woken = true
                } else if let worker = byDescriptor[event.descriptor] {
                    answer(worker, input: event.readable || event.hangup, checkpoint: checkpoint)
                } else if listeners.contains(where: { $0.socket.fileDescriptor == event.descriptor }) {
                    listenerReady = true
                }
            }
            // The replies of the turn, written together (see `answer`).
            for (id, worker) in held { settle(id, worker, worker.writeHeld(buffer: buffer)) }
            if woken {
                for id in waker.take() { advance(id, input: false) }
            }
            let now = time.now
            if let nearest, nearest <= now {
                for (id, worker) in workers where worker.deadline.map({ $0 <= now }) ?? false {
                    advance(id, input: false)
                }
            }
            if let pausedUntil, now >= pausedUntil { resumeListeners(graceOver: true) }
            if listenerReady, pausedUntil == nil {
                for listener in listeners { acceptPending(on: listener) }
            }
        }
        shutDown()
    }

    /// The nearest deadline of any connection or of a pause; nil when there is none (an idle
    /// server never wakes up).
    private func nearestDeadline() -> ContinuousClock.Instant? {
        var next = pausedUntil
        for worker in workers.values {
            if let deadline = worker.deadline { next = min(next ?? deadline, deadline) }
        }
        return next
    }

    /// Connections whose replies this turn made and not yet wrote.
    private var held: [(id: UInt64, worker: LineConnectionWorker)] = []

    /// Answers what `worker`'s connection read this turn without writing the replies yet: the loop
    /// writes every connection's replies once the turn's requests are answered, as Redis does.
    /// Each write wakes a client; written together rather than one between two answers, the
    /// agent's CPU per `get` under 64 clients fell by about a tenth (docs/BENCHMARKS.md).
    private func answer(_ worker: LineConnectionWorker, input: Bool, checkpoint: ChangeCheckpoint) {
        let id = worker.connection.id
        if let ended = worker.advance(input: input, buffer: buffer, holdingWrites: true, checkpoint: checkpoint) {
            end(id, worker, ended)
            return
        }
        held.append((id, worker))
    }

    /// Lets connection `id` do what it can now; ends it when it is over.
    private func advance(_ id: UInt64, input: Bool) {
        guard let worker = workers[id] else { return }
        settle(id, worker, worker.advance(input: input, buffer: buffer))
    }

    /// Ends connection `id` if it ended, or watches its socket for what it waits for now.
    private func settle(_ id: UInt64, _ worker: LineConnectionWorker, _ ended: LineConnection.CloseReason?) {
        if let reason = ended {
            end(id, worker, reason)
            return
        }
        let interest = worker.interest
        if interest != worker.registered {
            do {
                try queue.modify(worker.connection.socket.fileDescriptor, interest: interest)
                worker.registered = interest
            } catch {
                end(id, worker, .failed(errno: error.errno ?? EIO))
            }
        }
    }

    private func end(_ id: UInt64, _ worker: LineConnectionWorker, _ reason: LineConnection.CloseReason) {
        let fd = worker.connection.socket.fileDescriptor
        queue.remove(fd)
        byDescriptor.removeValue(forKey: fd)
        workers.removeValue(forKey: id)
        _ = worker.finish(reason)
        server.state.withLock { state in
            state.unauthenticated.removeValue(forKey: id)
            state.connections.removeValue(forKey: id)
        }
        worker.session.closed(worker.connection)
        if pausedUntil != nil, hasRoom { resumeListeners(graceOver: false) }
    }

    // MARK: - Accepting

    /// Accepts every connection waiting on `listener`, until the server is full, or every
    /// unauthenticated slot is held by a connection still within its grace (then the kernel
    /// keeps newcomers until the oldest's grace ends; see ``LineServerLimits/pendingGrace``).
    private func acceptPending(on listener: LineServer.Listener) {
        while pausedUntil == nil, server.state.withLock({ $0.isRunning }) {
            if let graceEnds = slotsFullUntil() {
                pause(for: max(.milliseconds(1), graceEnds - time.now))
                return
            }
            guard let (client, peer) = acceptOne(on: listener) else { return }
            admit(client, peer: peer, endpoint: listener.endpoint)
        }
    }

    private func acceptOne(on listener: LineServer.Listener) -> (Socket, String)? {
        while true {
            do {
                return try listener.socket.accept()
            } catch {
                switch error.errno {
                case ECONNABORTED?, EINTR?:
                    continue
                case EMFILE?, ENFILE?, ENOBUFS?, ENOMEM?:
                    // The listener stays readable: pause it briefly instead of spinning until
                    // a descriptor frees up.
                    pause(for: .milliseconds(100))
                    return nil
                default:
                    return nil
                }
            }
        }
    }

    /// Registers a new client and its session, or, when the server is full, stops accepting
    /// for a moment (a slot held by a client that already left frees as soon as the loop sees
    /// it go) and refuses it if no slot freed by then.
    private func admit(_ client: Socket, peer: String, endpoint: Endpoint) {
        do {
            try client.setNonBlocking()
        } catch {
            client.close()
            return
        }
        let limits = server.limits
        let deadline = limits.authenticationTimeout.map { ContinuousClock.now + $0 }
        let budget = server.budget
        let waker = waker
        let now = time.now
        let admission = server.state.withLock { state -> LineServer.Admission in
            guard state.isRunning else { return .stopped }
            guard state.connections.count < limits.maxConnections else { return .full }
            let id = state.nextID
            state.nextID += 1
            let connection = LineConnection(
                id: id, endpoint: endpoint, peer: peer, socket: client, wake: waker, budget: budget,
                trust: deadline.map { .unauthenticated(deadline: $0) } ?? .trusted,
                onAuthenticated: { [weak server] connection in
                    server?.state.withLock { _ = $0.unauthenticated.removeValue(forKey: connection.id) }
                })
            state.connections[id] = connection
            if deadline != nil { state.unauthenticated[id] = now }
            return .admitted(connection)
        }
        switch admission {
        case .admitted(let connection):
            // Read at once: a request that arrived whole (and authenticated the connection)
            // takes no slot; one still arriving takes the oldest's when every slot is taken,
            // so silent connections never lock a client out.
            start(connection)
            if deadline != nil {
                displaceOverSlots(keeping: connection.id)
                enforceUnauthenticatedInputBudget()
            }
        case .full:
            refuseLater(client, peer: peer, endpoint: endpoint)
        case .stopped:
            client.close()
        }
    }

    private func start(_ connection: LineConnection) {
        let session = server.makeSession(connection)
        let worker = LineConnectionWorker(connection: connection, session: session, limits: server.limits, time: time)
        let fd = connection.socket.fileDescriptor
        do {
            try queue.add(fd, interest: worker.registered)
        } catch {
            _ = worker.finish(.failed(errno: error.errno ?? EIO))
            server.state.withLock { state in
                state.unauthenticated.removeValue(forKey: connection.id)
                state.connections.removeValue(forKey: connection.id)
            }
            session.closed(connection)
            return
        }
        workers[connection.id] = worker
        byDescriptor[fd] = worker
        // A session may have sent a greeting, or the peer may already have written.
        advance(connection.id, input: true)
    }

    /// When every unauthenticated slot is taken and the oldest is still within its grace:
    /// when that grace ends. Nil when a newcomer may be accepted now.
    private func slotsFullUntil() -> ContinuousClock.Instant? {
        let limits = server.limits
        guard limits.authenticationTimeout != nil else { return nil }
        return server.state.withLock { state -> ContinuousClock.Instant? in
            guard state.unauthenticated.count >= limits.unauthenticatedSlots,
                let oldest = state.unauthenticated.values.min()
            else { return nil }
            let ends = oldest + limits.pendingGrace
            return ends > time.now ? ends : nil
        }
    }

    /// Closes the oldest unauthenticated connections (never `newest`) while more than the
    /// slots are taken.
    private func displaceOverSlots(keeping newest: UInt64) {
        let slots = server.limits.unauthenticatedSlots
        let displaced = server.state.withLock { state -> [LineConnection] in
            var displaced: [LineConnection] = []
            while state.unauthenticated.count > slots,
                let oldest = state.unauthenticated.filter({ $0.key != newest }).min(by: { $0.value < $1.value })?.key
            {
                state.unauthenticated.removeValue(forKey: oldest)
                if let connection = state.connections[oldest] { displaced.append(connection) }
            }
            return displaced
        }
        for connection in displaced { connection.requestClose(.displaced) }
    }

    /// Closes the unauthenticated connection holding the most input while they together hold
    /// more than ``LineServerLimits/maxUnauthenticatedInputBytes``.
    private func enforceUnauthenticatedInputBudget() {
        let limits = server.limits
        guard limits.authenticationTimeout != nil else { return }
        let pending = server.state.withLock { Array($0.unauthenticated.keys) }
        guard !pending.isEmpty else { return }
        var held = pending.compactMap { id in workers[id].map { (id, $0.pendingInputBytes) } }
        var total = held.reduce(0) { $0 + $1.1 }
        while total > limits.maxUnauthenticatedInputBytes, let largest = held.max(by: { $0.1 < $1.1 }) {
            held.removeAll { $0.0 == largest.0 }
            total -= largest.1
            workers[largest.0]?.connection.requestClose(.pendingInputOverflow)
            advance(largest.0, input: false)
        }
    }

    /// A client that found the server full: it was accepted already, so it waits out the
    /// grace here while the listeners rest, then is admitted or refused.
    private func refuseLater(_ client: Socket, peer: String, endpoint: Endpoint) {
        if pausedUntil == nil { pause(for: LineServer.slotGrace) }
        waitingForSlot.append((client, peer, endpoint))
    }

    /// Accepted clients waiting for a slot, oldest first.
    private var waitingForSlot: [(client: Socket, peer: String, endpoint: Endpoint)] = []

    private var hasRoom: Bool {
        server.state.withLock { $0.connections.count < server.limits.maxConnections }
    }

    private func pause(for duration: Duration) {
        pausedUntil = .now + duration
        for listener in listeners {
            try? queue.modify(listener.socket.fileDescriptor, interest: [])
        }
    }

    /// After a slot freed or the grace passed: admits waiting clients while there is room;
    /// once the grace is over, refuses those that still find the server full (and clients
    /// that queued in the backlog meanwhile), then watches the listeners again.
    private func resumeListeners(graceOver: Bool) {
        var still: [(client: Socket, peer: String, endpoint: Endpoint)] = []
        let waiting = waitingForSlot
        waitingForSlot = []
        for entry in waiting {
            if hasRoom {
                admit(entry.client, peer: entry.peer, endpoint: entry.endpoint)
            } else if graceOver {
                server.refuse(entry.client)
            } else {
                still.append(entry)
            }
        }
        // Admitting may itself have found the server full again and paused it.
        waitingForSlot = still + waitingForSlot
        guard waitingForSlot.isEmpty else { return }
        pausedUntil = nil
        for listener in listeners {
            try? queue.modify(listener.socket.fileDescriptor, interest: .read)
        }
        guard graceOver else { return }
        for listener in listeners {
            while !hasRoom, server.state.withLock({ $0.isRunning }), let (client, _) = acceptOne(on: listener) {
                server.refuse(client)
            }
        }
    }

    // MARK: - Stopping

    /// Ends every connection (without flushing: the server stops), then releases the
    /// listeners, the waker and the queue.
    private func shutDown() {
        for (id, worker) in workers {
            worker.connection.requestClose(.serverStopped)
            end(id, worker, .serverStopped)
        }
        for entry in waitingForSlot { entry.client.close() }
        waitingForSlot = []
        for listener in listeners {
            queue.remove(listener.socket.fileDescriptor)
            listener.socket.close()
        }
        queue.remove(waker.readEnd)
        waker.close()
        queue.close()
    }
}
