import JarvisCore
/// What the layer above (JSON-RPC) plugs into a `LineServer`: one session per connection.
///
/// Rules for implementers:
/// - Every method is called on the server's loop thread (the one that read the line), never
///   the main thread and never the Swift concurrency pool, one call at a time and in order. A
///   slow `received` delays every connection of that server: hand long work to a queue of its
///   own and reply from there.
/// - Reply with `connection.send(_:)`, from this thread or any other; it never blocks.
/// - The server holds no lock while calling these methods, so they may call back into the
///   connection or the server (even `stop()`).
///
/// ```swift
/// final class Echo: LineSession {
///     func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
///         connection.send(line)
///     }
///     func lineTooLong(on connection: LineConnection) -> [UInt8]? { Array("too long".utf8) }
///     func closed(_ connection: LineConnection) {}
/// }
/// ```
package protocol LineSession: AnyObject, Sendable {
    /// Called on the server's loop thread, one line at a time, in order; `line` has no `\n`.
    /// `checkpoint` says whether the loop read the file system's pending change notifications
    /// after this line arrived (see ``ChangeCheckpoint``): valid for this call only, on this
    /// thread; work handed elsewhere answers without it (``ChangeCheckpoint/none``).
    func received(line: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint)
    /// The peer sent a line over the limit: the server will send `reply` if non-nil then close.
    func lineTooLong(on connection: LineConnection) -> [UInt8]?
    /// The connection is gone (see `connection.closeReason`); the last call for it.
    func closed(_ connection: LineConnection)
    /// An HTTP server's peer sent a request over its limits (``LineServerLimits/Framing/http(maxHead:maxBody:)``):
    /// the server will send `reply` as it is, if non-nil, then close.
    func requestTooLarge(_ overflow: HTTPFramer.Overflow, on connection: LineConnection) -> [UInt8]?
    /// Whether the loop may read more lines from the peer now. While false the peer's lines
    /// wait in the socket (and the peer, once that is full); a session that answers false
    /// calls ``LineConnection/resumeInput()`` when it takes lines again. Asked on the loop
    /// thread after each of the connection's turns. Every line is taken by default.
    func acceptsInput(on connection: LineConnection) -> Bool
}

extension LineSession {
    /// Line servers never meet an HTTP request: nothing is sent.
    package func requestTooLarge(_ overflow: HTTPFramer.Overflow, on connection: LineConnection) -> [UInt8]? { nil }
    /// Every line is taken.
    package func acceptsInput(on connection: LineConnection) -> Bool { true }
}
