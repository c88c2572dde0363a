/// Bounds that keep one misbehaving client from exhausting the host app's memory or threads.
package struct LineServerLimits: Sendable, Hashable {
    /// The longest request line accepted, in bytes; longer ones get `LineSession.lineTooLong`.
    package var maxLineLength: Int
    /// Connections served at once; further clients get the server's refusal line and are closed.
    package var maxConnections: Int
    /// Closes a connection that sent and read nothing for this long; nil keeps idle
    /// connections for ever (and then an idle server never wakes up at all).
    package var idleTimeout: Duration?
    /// Output queued for all connections together; a client that stops reading while it is
    /// spent is dropped. Streamed answers count only the chunk in hand.
    package var maxPendingOutputBytes: Int
    /// Output one connection may hold unwritten without a clock running (Redis's soft limit of
    /// a client's output buffer); a streamed line still being made counts as one chunk more.
    package var outputSoftLimit: Int
    /// How long a connection may hold ``outputSoftLimit`` or more while its socket takes
    /// nothing (the peer reads nothing) before it is dropped
    /// (``LineConnection/CloseReason/outputStalled``); any byte the peer reads starts the
    /// time again. Nil never drops a peer for it.
    package var outputStallTimeout: Duration?
    /// How long a new connection has to authenticate (``LineConnection/authenticated()``)
    /// before it is closed; nil trusts connections from the start (owner-only Unix sockets).
    package var authenticationTimeout: Duration?
    /// Connections still authenticating served at once, kept below `maxConnections` so that
    /// silent connections never take the last slots from a client that authenticates. When
    /// all are taken, a new connection displaces the oldest unauthenticated one.
    package var maxUnauthenticatedConnections: Int

    /// How long a connection keeps its unauthenticated slot before a newcomer may displace it.
    /// While every slot is younger than this, the server accepts nobody and the kernel keeps
    /// newcomers in its queue (``backlog``), where their first request arrives; a connection
    /// whose first request made it authenticated at once took no slot at all. Zero displaces
    /// the oldest at once.
    package var pendingGrace: Duration
    /// The most input bytes the unauthenticated connections may hold together; past it, the
    /// one holding the most is closed.
    package var maxUnauthenticatedInputBytes: Int
    /// How many connections the kernel keeps waiting for the server to accept them.
    package var backlog: Int32
    /// How a connection's input is cut into the messages handed to its session.
    package var framing: Framing

    /// How input is cut into messages.
    package enum Framing: Sendable, Hashable {
        /// Lines ending in `\n`, at most ``LineServerLimits/maxLineLength`` bytes (``LineFramer``).
        case lines
        /// HTTP/1.1 requests, a head and the body its `Content-Length` names (``HTTPFramer``);
        /// replies are written as given (``LineConnection/send(raw:)``).
        case http(maxHead: Int, maxBody: Int)
    }

    /// Creates limits; the defaults suit a debugging agent inside an app.
    package init(
        maxLineLength: Int = 1 << 20,
        maxConnections: Int = 128,
        idleTimeout: Duration? = nil,
        maxPendingOutputBytes: Int = 8 << 20,
        outputSoftLimit: Int = 64 * 1024,
        outputStallTimeout: Duration? = .seconds(30),
        authenticationTimeout: Duration? = nil,
        maxUnauthenticatedConnections: Int = 16,
        pendingGrace: Duration = .milliseconds(100),
        maxUnauthenticatedInputBytes: Int = 16 << 20,
        backlog: Int32 = 128,
        framing: Framing = .lines
    ) {
        self.pendingGrace = pendingGrace
        self.maxUnauthenticatedInputBytes = maxUnauthenticatedInputBytes
        self.backlog = backlog
        self.framing = framing
        self.maxLineLength = maxLineLength
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.maxPendingOutputBytes = maxPendingOutputBytes
        self.outputSoftLimit = outputSoftLimit
        self.outputStallTimeout = outputStallTimeout
        self.authenticationTimeout = authenticationTimeout
        self.maxUnauthenticatedConnections = maxUnauthenticatedConnections
    }

    /// The unauthenticated limit actually applied: always at least one slot below the total.
    var unauthenticatedSlots: Int {
        max(1, min(maxUnauthenticatedConnections, maxConnections - 1))
    }
}
