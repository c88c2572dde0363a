import Dispatch
import JarvisCore

/// The request timeouts of one connection, on one timer: what a request waiting in the
/// connection's lane costs until it is answered, and nothing after.
///
/// Each request with an id gets a ticket when it is submitted: the lane's job claims it with
/// ``answer(_:)`` when its answer is ready, and the expiry action given with ``arm(_:expiry:)``
/// runs instead if the timeout passes first; exactly one of the two answers the request. A
/// claimed ticket is forgotten at once, so a client that sends requests as fast as they are
/// answered keeps nothing here (one dispatch timer per request, each kept for the whole
/// timeout, once made 50,000 quick writes cost the agent 28 MiB). One timer at a time is
/// armed, for the earliest deadline still open. Thread-safe.
final class RequestDeadlines: Sendable {
    private struct Entry {
        var ticket: UInt64
        var deadline: ContinuousClock.Instant
        /// What answers the request if the deadline passes first; nil until armed.
        var expiry: (@Sendable () -> Void)?
        /// The deadline passed before the expiry was armed: arming runs it at once.
        var expired = false
    }

    private struct State {
        /// Open tickets in the order they were taken, so in deadline order too.
        var entries: [Entry] = []
        var start = 0
        var nextTicket: UInt64 = 1
        /// The deadline the timer is armed for; nil when none is.
        var timer: ContinuousClock.Instant?

        var open: ArraySlice<Entry> { entries[start...] }

        func index(of ticket: UInt64) -> Int? {
            // Tickets are taken in increasing order: the open ones are sorted.
            var (low, high) = (start, entries.count)
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].ticket < ticket { low = middle + 1 } else { high = middle }
            }
            return low < entries.count && entries[low].ticket == ticket ? low : nil
        }

        mutating func remove(at index: Int) {
            if index == start {
                start += 1
            } else {
                entries.remove(at: index)
            }
            if start == entries.count {
                // A burst's array is let go, not kept at its largest for the connection's life.
                entries = []
                start = 0
            } else if start > 64 && start * 2 > entries.count {
                entries.removeFirst(start)
                start = 0
            }
        }
    }

    private let timeout: Duration
    private let state = Locked(State())

    /// - Parameter timeout: how long a request may take before its client is told it timed out.
    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Starts the clock of a request: its ticket, for ``answer(_:)`` and ``arm(_:expiry:)``.
    func start() -> UInt64 {
        let deadline = ContinuousClock.now + timeout
        let (ticket, arms) = state.withLock { state -> (UInt64, Bool) in
            let ticket = state.nextTicket
            state.nextTicket &+= 1
            state.entries.append(Entry(ticket: ticket, deadline: deadline))
            guard state.timer == nil else { return (ticket, false) }
            state.timer = deadline
            return (ticket, true)
        }
        if arms { schedule(at: deadline) }
        return ticket
    }

    /// Gives the action that answers the request if its deadline passes before ``answer(_:)``;
    /// run at once when it passed already, never when the request was answered.
    func arm(_ ticket: UInt64, expiry: @escaping @Sendable () -> Void) {
        let runsNow = state.withLock { state -> Bool in
            guard let index = state.index(of: ticket) else { return false }
            guard state.entries[index].expired else {
                state.entries[index].expiry = expiry
                return false
            }
            state.remove(at: index)
            return true
        }
        if runsNow { expiry() }
    }

    /// Whether the request is still to be answered (its deadline has not passed): a job checks
    /// before it starts.
    func isOpen(_ ticket: UInt64) -> Bool {
        state.withLock { state in state.index(of: ticket).map { !state.entries[$0].expired } ?? false }
    }

    /// True for the job that answers its request before the deadline: the ticket is
    /// forgotten. False once the deadline passed (its expiry answers).
    func answer(_ ticket: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.index(of: ticket), !state.entries[index].expired else { return false }
            state.remove(at: index)
            return true
        }
    }

    /// How many requests are still to be answered (for tests).
    var openCount: Int { state.withLock { $0.open.count } }

    private func schedule(at deadline: ContinuousClock.Instant) {
        let wait = Int(clamping: max(.zero, deadline - .now).wholeNanoseconds(rounded: .up))
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(wait)) { [weak self] in self?.expire() }
    }

    /// The timer fired: every request past its deadline is answered by its expiry, and the
    /// timer is armed again for the earliest one left.
    private func expire() {
        let now = ContinuousClock.now
        let (due, next) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
            var due: [@Sendable () -> Void] = []
            var index = state.start
            while index < state.entries.count, state.entries[index].deadline <= now {
                if let expiry = state.entries[index].expiry {
                    due.append(expiry)
                    state.remove(at: index)
                    // Removing shifts or restarts the array: look again from its open start.
                    index = state.start
                    continue
                }
                state.entries[index].expired = true
                index += 1
            }
            let next = state.open.first { !$0.expired }?.deadline
            state.timer = next
            return (due, next)
        }
        if let next { schedule(at: next) }
        for expiry in due { expiry() }
    }
}
