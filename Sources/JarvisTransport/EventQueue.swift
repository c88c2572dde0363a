/// A readiness queue: which of many descriptors can be read or written now, waited for in one
/// system call (epoll on Linux, kqueue on Apple platforms).
///
/// One thread owns a queue: every method is called on it alone, which is why the queue is not
/// `Sendable`. Interest is level-triggered: a descriptor with unread input, or room to write
/// while writing is of interest, is reported again by every `wait` until that changes.
///
/// Rules for implementers: report a hung-up or failed descriptor as `hangup` whatever its
/// interest, so its owner reads the end of file or the error; `remove` before closing.
///
/// ```swift
/// let queue = try makeEventQueue()
/// try queue.add(socket, interest: .read)
/// var ready: [ReadyEvent] = []
/// try queue.wait(timeout: -1, into: &ready)
/// for event in ready where event.readable { /* read */ }
/// ```
package protocol EventQueue: AnyObject {
    /// Starts watching `descriptor` for `interest`.
    /// - Throws: `SocketError` with the system's errno (e.g. out of memory).
    func add(_ descriptor: Int32, interest: EventInterest) throws(SocketError)
    /// Changes what `descriptor` is watched for; an empty interest keeps it registered, quiet.
    func modify(_ descriptor: Int32, interest: EventInterest) throws(SocketError)
    /// Stops watching `descriptor`; call it before closing the descriptor.
    func remove(_ descriptor: Int32)
    /// Waits until some descriptor is ready or `timeout` milliseconds pass (-1: no limit).
    /// - Parameter ready: replaced by the ready descriptors (empty after the timeout or a
    ///   signal); its storage is kept, so a loop that passes the same array makes none per turn.
    func wait(timeout: Int32, into ready: inout [ReadyEvent]) throws(SocketError)
    /// Releases the queue's own descriptor.
    func close()
}

/// What a descriptor is watched for.
package struct EventInterest: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Input is waiting (or the peer closed).
    package static let read = EventInterest(rawValue: 1)
    /// The socket takes more output.
    package static let write = EventInterest(rawValue: 2)
}

/// One descriptor the queue found ready.
package struct ReadyEvent: Sendable, Hashable {
    /// The descriptor.
    package var descriptor: Int32
    /// Input is waiting.
    package var readable: Bool
    /// Output fits.
    package var writable: Bool
    /// The peer hung up or the descriptor failed: a read will tell which.
    package var hangup: Bool
}
