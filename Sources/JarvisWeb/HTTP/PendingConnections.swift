import JarvisTransport

/// The connections whose first request is still arriving, read by the server's one loop.
///
/// Anyone on the machine can connect, so what a connection may hold before it shows the
/// session cookie is bounded: no thread, at most the request's own limits in bytes, a
/// deadline, and a fixed number of places; a new connection takes the place of the oldest.
/// Owned by the loop's thread alone (it holds the loop's readiness queue).
struct PendingConnections {
    private struct Entry {
        var socket: Socket
        var bytes: [UInt8] = []
        var deadline: ContinuousClock.Instant
        var order: Int
    }

    private let queue: any EventQueue
    private var entries: [Int32: Entry] = [:]
    private var arrivals = 0
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// Reads connections with `queue`, which the caller keeps and closes.
    init(queue: any EventQueue) { self.queue = queue }

    /// How many connections are waiting.
    var count: Int { entries.count }

    /// The earliest deadline, nil when none waits.
    var nextDeadline: ContinuousClock.Instant? { entries.values.map(\.deadline).min() }

    /// Starts reading `socket`; when `limit` connections already wait, the oldest is closed.
    mutating func add(_ socket: Socket, deadline: ContinuousClock.Instant, limit: Int) {
        guard (try? socket.setNonBlocking()) != nil, (try? queue.add(socket.fileDescriptor, interest: .read)) != nil else {
            socket.close()
            return
        }
        while entries.count >= limit, let oldest = entries.values.min(by: { $0.order < $1.order }) {
            drop(oldest.socket.fileDescriptor)
        }
        arrivals += 1
        entries[socket.fileDescriptor] = Entry(socket: socket, deadline: deadline, order: arrivals)
    }

    /// Reads what `descriptor` sent; once its request is whole or refused, hands the socket
    /// over (no longer watched) with what reading it came to.
    mutating func read(_ descriptor: Int32) -> (Socket, HTTPRequest.Outcome)? {
        guard var entry = entries[descriptor] else { return nil }
        let result = chunk.withUnsafeMutableBytes { raw in Result { () throws(SocketError) in try entry.socket.read(into: raw) } }
        switch result {
        case .success(let count) where count > 0:
            entry.bytes += chunk[0..<count]
        case .failure(let error) where error.isWouldBlock:
            return nil
        default:
            drop(descriptor)
            return nil
        }
        let outcome = HTTPRequest.parse(entry.bytes)
        if case .incomplete = outcome {
            entries[descriptor] = entry
            return nil
        }
        entries[descriptor] = nil
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
        queue.remove(descriptor)
        entry.socket.close()
    }
}
