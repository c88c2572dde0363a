/// Bounds that keep one misbehaving client from exhausting the host app's memory or threads.
package struct LineServerLimits: Sendable, Hashable {
    /// The longest request line accepted, in bytes; longer ones get `LineSession.lineTooLong`.
    package var maxLineLength: Int
    /// Connections served at once; further clients get the server's refusal line and are closed.
    package var maxConnections: Int
    /// Closes a connection that sent nothing for this long; nil keeps idle connections for ever
    /// (and then an idle server never wakes up at all).
    package var idleTimeout: Duration?
    /// Output queued for a client that does not read; past this the client is dropped.
    package var maxPendingOutputBytes: Int

    /// Creates limits; the defaults suit a debugging agent inside an app.
    package init(
        maxLineLength: Int = 1 << 20,
        maxConnections: Int = 128,
        idleTimeout: Duration? = nil,
        maxPendingOutputBytes: Int = 8 << 20
    ) {
        self.maxLineLength = maxLineLength
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.maxPendingOutputBytes = maxPendingOutputBytes
    }
}
