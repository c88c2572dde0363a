/// A long line made piece by piece while the peer reads it, so a large answer never sits
/// whole in memory: the connection asks for the next piece only once the loop took the
/// previous one (backpressure), and a client that reads slowly slows the producer instead of
/// growing the host app's memory.
///
/// Rules for implementers:
/// - `produce` runs as a job on the connection's ``WorkLane``, never on the server's loop
///   thread (it may read storage: open the next container of a listing, parse a file, call
///   a keyring), one call at a time, until it returns true; then the connection adds the
///   `\n` itself. See ``StreamedLine``.
/// - Append about `size` bytes per call (more is allowed, a piece is never split); the
///   pieces together must form one line without `\n`.
/// - When a call does not return within the step timeout, the connection gives up on it and
///   ends the line with ``rest(afterStepTimedOut:)``, asked of the producer as it was before
///   that call; the stuck call's own pieces are dropped when it returns. A producer whose
///   steps are independent (one storage each) may instead go on without that step
///   (``skipping(afterStepTimedOut:)``).
/// - A step runs in the group of threads of the storage it may wait on: ``nextGroup``, else
///   the line's own (see ``WorkLane/submit(group:_:)``), so one stuck storage holds only its
///   own group's threads.
/// - A producer dropped before it finished (the peer left) is simply released.
///
/// ```swift
/// struct Countdown: LineProducer {
///     var left = 3
///     mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool {
///         buffer += Array("\(left) ".utf8)
///         left -= 1
///         return left == 0
///     }
///     func rest(afterStepTimedOut timeout: Duration) -> [UInt8] { Array("stopped".utf8) }
/// }
/// ```
package protocol LineProducer: Sendable {
    /// Appends the next piece of the line to `buffer`; returns true once the line is complete.
    mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool

    /// What completes the line when the next call of ``produce(into:size:)`` did not finish
    /// within `timeout`: called on the producer as it was before that call, on any thread, so
    /// it must touch no storage. The pieces made before are already sent; the result must
    /// make them one valid line (without `\n`).
    func rest(afterStepTimedOut timeout: Duration) -> [UInt8]

    /// When the next call of ``produce(into:size:)`` did not finish within `timeout`: the
    /// bytes that stand for it in the line and the producer that makes the rest after it (nil
    /// when those bytes complete the line), or nil to end the line with
    /// ``rest(afterStepTimedOut:)``. Called as that method is, on the producer as it was
    /// before that call; it must touch no storage.
    func skipping(afterStepTimedOut timeout: Duration) -> (bytes: [UInt8], next: (any LineProducer)?)?

    /// The storage the next call of ``produce(into:size:)`` may wait on (a scanner's id), for
    /// the group of threads it runs in; nil for the line's own group.
    var nextGroup: String? { get }
}

extension LineProducer {
    /// Ends the line at the first step that times out.
    package func skipping(afterStepTimedOut timeout: Duration) -> (bytes: [UInt8], next: (any LineProducer)?)? {
        nil
    }

    /// The line's own group.
    package var nextGroup: String? { nil }
}
