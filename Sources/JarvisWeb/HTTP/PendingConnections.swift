import JarvisTransport

/// The connections whose first request is still arriving, read by the server's one loop.
///
/// Anyone on the machine can connect, so what a connection may hold before it shows the
/// session cookie is bounded: no thread, at most the request's own limits in bytes, a byte
/// budget for all of them (over it, the one holding the most is dropped: a browser's
/// requests are small), a deadline, and a fixed number of places.
///
/// A connection keeps its place for at least `grace` after it arrives; past that a newcomer
/// takes the place of the oldest. While every place is within its grace the server accepts
/// nobody (``hasRoom(now:)``): the kernel keeps newcomers in its queue, where their requests
/// arrive, so a browser behind a crowd is read the moment it is accepted, and a request that
/// arrived whole takes no place at all. A crowd costs the page a wait in that queue, never a
/// connection pushed out before it could send a byte.
/// Owned by the loop's thread alone (it holds the loop's readiness queue).
struct PendingConnections {
    private struct Entry {
        var socket: Socket
        var bytes: [UInt8] = []
        var arrived: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant
        var order: Int
    }

    private let queue: any EventQueue
    private let limit: Int
    private let grace: Duration
    private let budget: Int
    private var held = 0
    private var entries: [Int32: Entry] = [:]
    private var arrivals = 0
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// Reads connections with `queue`, which the caller keeps and closes; at most `limit` wait
    /// at once, each keeping its place for at least `grace`, all together holding at most
    /// `budget` bytes.
    init(queue: any EventQueue, limit: Int, grace: Duration, budget: Int) {
        self.queue = queue
        self.limit = limit
        self.grace = grace
        self.budget = budget
    }

    /// How many connections are waiting.
    var count: Int { entries.count }

    /// The earliest deadline, nil when none waits.
    var nextDeadline: ContinuousClock.Instant? { entries.values.map(\.deadline).min() }

    private var oldest: Entry? { entries.values.min(by: { $0.order < $1.order }) }

    /// Whether a newcomer can be taken now: a place is free, or the oldest is past its grace.
    func hasRoom(now: ContinuousClock.Instant) -> Bool {
        entries.count < limit || oldest.map { now - $0.arrived >= grace } ?? true
    }

    /// When ``hasRoom(now:)`` turns true again; nil when it is true now (or only a deadline
    /// can free a place).
    var nextRoom: ContinuousClock.Instant? {
        guard entries.count >= limit, let oldest else { return nil }
        return oldest.arrived + grace
    }

    /// Reads what `socket` already sent: a request that arrived whole is handed back at once,
    /// as ``read(_:)`` does, taking no place; otherwise it waits, pushing out the oldest when
    /// every place is taken (call only when ``hasRoom(now:)``).
    mutating func add(_ socket: Socket, now: ContinuousClock.Instant, deadline: ContinuousClock.Instant)
        -> (Socket, HTTPRequest.Outcome)?
    {
        guard (try? socket.setNonBlocking()) != nil, (try? queue.add(socket.fileDescriptor, interest: .read)) != nil
        else {
            socket.close()
            return nil
        }
        arrivals += 1
        entries[socket.fileDescriptor] = Entry(socket: socket, arrived: now, deadline: deadline, order: arrivals)
        if let whole = read(socket.fileDescriptor) { return whole }
        // Still arriving: it takes a place, the oldest's if none is free.
        while entries.count > limit, let oldest {
            drop(oldest.socket.fileDescriptor)
        }
        return nil
    }

    /// Reads what `descriptor` sent; once its request is whole or refused, hands the socket
    /// over (no longer watched) with what reading it came to.
    mutating func read(_ descriptor: Int32) -> (Socket, HTTPRequest.Outcome)? {
        guard var entry = entries[descriptor] else { return nil }
        let result = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(SocketError) in try entry.socket.read(into: raw) }
        }
        switch result {
        case .success(let count) where count > 0:
            entry.bytes += chunk[0..<count]
            held += count
        case .failure(let error) where error.isWouldBlock:
            return nil
        default:
            drop(descriptor)
            return nil
        }
        let outcome = HTTPRequest.parse(entry.bytes)
        if case .incomplete = outcome {
            entries[descriptor] = entry
            while held > budget, let largest = entries.values.max(by: { $0.bytes.count < $1.bytes.count }) {
                drop(largest.socket.fileDescriptor)
            }
            return nil
        }
        entries[descriptor] = nil
        held -= entry.bytes.count
        queue.remove(descriptor)
        return (entry.socket, outcome)
    }

    /// Closes the connections whose time is up.
    mutating func dropExpired(now: ContinuousClock.Instant) {
        for (descriptor, entry) in entries where entry.deadline <= now { drop(descriptor) }
    }

    /// Closes every waiting connection.
    mutating func closeAll() {
        for descriptor in Array(entries.keys) { drop(descriptor) }
    }

    private mutating func drop(_ descriptor: Int32) {
        guard let entry = entries.removeValue(forKey: descriptor) else { return }
        held -= entry.bytes.count
        queue.remove(descriptor)
        entry.socket.close()
    }
}
