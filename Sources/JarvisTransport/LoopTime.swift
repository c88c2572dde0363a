/// The time of a readiness loop's turn: read once when the loop wakes, and taken by every
/// connection served in that turn (for its last activity, its idle timeout and its deadlines)
/// instead of reading the clock again for each request.
///
/// A turn lasts as long as its answers take, so a time read here is at most that much early:
/// nothing the loop times (idle timeouts, authentication deadlines, the linger of a close)
/// is that fine. Not `Sendable`: it lives on the loop thread.
final class LoopTime {
    /// The time read at the start of the current turn.
    private(set) var now = ContinuousClock.now
    /// The number of the current turn, counting from zero.
    private(set) var turn: UInt64 = 0

    /// Reads the clock: the loop's turn begins.
    func tick() {
        now = .now
        turn &+= 1
    }
}
