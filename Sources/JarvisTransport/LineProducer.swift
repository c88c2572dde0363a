/// A long line made piece by piece while the peer reads it, so a large answer never sits
/// whole in memory: the connection asks for the next piece only once the socket took the
/// previous one (backpressure), and a client that reads slowly slows the producer instead of
/// growing the host app's memory.
///
/// Rules for implementers:
/// - `produce` is called on the server's loop thread, one call at a time, until it
///   returns true; then the connection adds the `\n` itself.
/// - Append about `size` bytes per call (more is allowed, a piece is never split); the
///   pieces together must form one line without `\n`.
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
/// }
/// ```
package protocol LineProducer: Sendable {
    /// Appends the next piece of the line to `buffer`; returns true once the line is complete.
    mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool
}
