import JarvisCore
import JarvisSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state of one connection on its server's readiness loop, which does all of its
/// socket I/O.
///
/// The loop calls ``advance(input:buffer:holdingWrites:checkpoint:)`` when the socket is ready, when the connection was
/// woken (output queued, a close asked for) and when its ``deadline`` passed; between calls
/// the connection costs no thread and no CPU. Writes are non-blocking from a local buffer of
/// at most about one chunk; writing is of interest only while it is non-empty. A streamed
/// line's pieces are made on the connection's work lane (``StreamedLine``), never here: the
/// loop only takes each piece once it is made and asks for the next, so at most one piece is
/// made ahead of the socket; streamed lines waiting their turn count against the output
/// budget, so a client that never reads is dropped. A connection whose socket takes nothing
/// while it holds ``LineServerLimits/outputSoftLimit`` (a line being streamed counts as a
/// chunk) is dropped once ``LineServerLimits/outputStallTimeout`` passed: a client that reads
/// nothing holds its listing's producer no longer than that, and one that reads is never
/// dropped for what other clients hold.
/// Not `Sendable`: the loop thread makes it and only that thread touches it (the compiler
/// keeps it there); other threads reach the connection through ``LineConnection``'s lock.
final class LineConnectionWorker {
    let connection: LineConnection
    let session: any LineSession
    private let socket: Socket
    private let idleTimeout: Duration?
    /// See ``LineServerLimits/outputStallTimeout`` and ``LineServerLimits/outputSoftLimit``.
    private let stallTimeout: Duration?
    private let softLimit: Int
    /// Since when the socket has taken nothing while output waited; nil while it takes what
    /// it is given (any byte written starts the time again).
    private var stalledSince: ContinuousClock.Instant?
    private var framer: InputFramer
    /// Output taken from the connection, in order, not yet in `outgoing`.
    private var pending: [LineConnection.Output] = []
    private var pendingStart = 0
    /// The streamed line being written, if any: its pieces are made on the connection's
    /// work lane, and output queued after it waits until it is complete.
    private var stream: StreamedLine?
    private var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    private var lastActivity: ContinuousClock.Instant
    /// The loop's time of the current turn: every reading of the clock a request made (its
    /// read, its write, its deadlines) costs a call the turn's one reading spares.
    private let time: LoopTime
    private var phase = Phase.serving
    /// When a graceful close gives up flushing or draining; set as the close begins.
    private var lingerDeadline: ContinuousClock.Instant
    /// What the loop's queue watches the socket for now.
    var registered: EventInterest = .read

    /// How long a graceful close may spend flushing replies and draining input.
    static let lingerTimeout: Duration = .seconds(2)
    /// About how many bytes of a streamed line are made at a time.
    static let chunkSize = 64 * 1024
    /// The most one connection writes in one turn of the loop (Redis's
    /// `NET_MAX_WRITES_PER_EVENT`): a client reading a long listing as fast as it can takes
    /// its share and lets every other connection's answers go out before its next one.
    static let maxWritePerTurn = 64 * 1024
    /// Bytes written in the loop's turn `writingTurn`.
    private var writtenInTurn = 0
    private var writingTurn: UInt64 = 0

    /// Bytes written so far in the loop's current turn.
    private var writtenThisTurn: Int {
        get { writingTurn == time.turn ? writtenInTurn : 0 }
        set {
            writingTurn = time.turn
            writtenInTurn = newValue
        }
    }
    /// How much one read takes from a socket.
    static let readSize = 64 * 1024

    /// Where the connection is in its life; a graceful close ends by ``lingerDeadline``. No
    /// clock instant inside: one would give the enum a layout the compiler does not know, and
    /// every look at it (several per request) a copy through the runtime.
    private enum Phase {
        case serving
        /// Sending what is queued before closing.
        case flushing(LineConnection.CloseReason)
        /// After the output is flushed the write side is shut and input is read and dropped,
        /// so the kernel does not answer unread input with a reset that could destroy the reply.
        case draining(LineConnection.CloseReason)

        var reason: LineConnection.CloseReason? {
            switch self {
            case .serving: nil
            case .flushing(let reason), .draining(let reason): reason
            }
        }
    }

    /// Whether the connection still serves requests (it never goes back).
    private var isServing: Bool {
        if case .serving = phase { return true }
        return false
    }

    init(connection: LineConnection, session: any LineSession, limits: LineServerLimits, time: LoopTime) {
        self.connection = connection
        self.session = session
        self.time = time
        lastActivity = time.now
        lingerDeadline = time.now
        self.socket = connection.socket
        self.idleTimeout = limits.idleTimeout
        stallTimeout = limits.outputStallTimeout
        softLimit = limits.outputSoftLimit
        switch limits.framing {
        case .lines: framer = .lines(LineFramer(maxLineLength: limits.maxLineLength))
        case .http(let maxHead, let maxBody): framer = .http(HTTPFramer(maxHead: maxHead, maxBody: maxBody))
        }
    }

    /// What the socket should be watched for: input while serving or draining, output while
    /// something is waiting to be written.
    var interest: EventInterest {
        var wanted: EventInterest = []
        if isServing {
            if session.acceptsInput(on: connection) { wanted.insert(.read) }
        } else if case .draining = phase {
            wanted.insert(.read)
        }
        // Output left over after a turn's share (``maxWritePerTurn``) is written next turn.
        if outgoingOffset < outgoing.count || hasMoreOutput { wanted.insert(.write) }
        return wanted
    }

    /// When the loop must call ``advance(input:buffer:holdingWrites:checkpoint:)`` even if nothing happens: the idle
    /// timeout, the authentication deadline or the end of a graceful close.
    var deadline: ContinuousClock.Instant? {
        if !isServing { return lingerDeadline }
        var next: ContinuousClock.Instant?
        if let idleTimeout { next = lastActivity + idleTimeout }
        if let stall = stallDeadline { next = min(next ?? stall, stall) }
        // The loop asks every connection at every turn: once trusted, never take the lock again.
        if !trusted {
            if case .unauthenticated(let deadline) = connection.shared.withLock({ $0.trust }) {
                next = min(next ?? deadline, deadline)
            } else {
                trusted = true
            }
        }
        return next
    }

    /// Set once the connection is trusted (it never goes back).
    private var trusted = false

    /// When the peer is dropped for reading nothing, if the socket has taken nothing since
    /// ``stalledSince`` and the connection holds its soft limit or more; nil otherwise (a few
    /// bytes a peer leaves unread cost no clock, as in Redis).
    private var stallDeadline: ContinuousClock.Instant? {
        guard let stallTimeout, let stalledSince else { return nil }
        // A streamed line still being made holds its producer too: it counts as a chunk more.
        let streaming = stream == nil ? 0 : Self.chunkSize
        let held = connection.shared.withLock { $0.unsent } + streaming
        return held >= softLimit ? stalledSince + stallTimeout : nil
    }

    /// Input received and not yet handed to the session.
    var pendingInputBytes: Int { framer.pendingByteCount }

    /// Does everything the connection can do now without blocking: takes queued output,
    /// writes, reads once if `input` (handing complete lines to the session, on this thread),
    /// and acts on passed deadlines.
    ///
    /// - Parameters:
    ///   - buffer: the loop's read buffer, shared by its connections.
    ///   - holdingWrites: make replies but do not write them yet; the loop passes it while it
    ///     answers a turn's requests and calls ``writeHeld(buffer:)`` once all are answered,
    ///     so the turn's writes (each of which wakes a client) come together.
    ///   - checkpoint: what the loop passed after reading ahead this turn (see
    ///     ``ChangeCheckpoint``); handed to the session with the lines read ahead, never with
    ///     lines read after it.
    /// - Returns: why the connection ended, once it did; then call ``finish(_:)``.
    func advance(
        input: Bool, buffer: UnsafeMutableRawBufferPointer, holdingWrites: Bool = false,
        checkpoint: ChangeCheckpoint = .none
    ) -> LineConnection.CloseReason? {
        var input = input
        while true {
            if let request = takeQueuedOutput() {
                beginClosing(request)
            }
            if let reason = phase.reason, !reason.flushesOutput {
                _ = flush()
                return reason
            }
            fillOutgoing()
            let (failure, queuedMeanwhile) = holdingWrites ? (nil, nil) : flush()
            if let failure {
                return failure
            }
            let drained = outgoingOffset >= outgoing.count
            // More output is ready and the socket took everything: make the next chunk now,
            // not after a wake-up that may never come.
            if drained, writtenThisTurn < Self.maxWritePerTurn,
                hasMoreOutput || (queuedMeanwhile ?? connection.shared.withLock({ !$0.queued.isEmpty }))
            {
                continue
            }
            if drained, case .flushing(let reason) = phase {
                socket.shutdownWrite()
                phase = .draining(reason)
            }
            if input {
                input = false
                if isServing {
                    if let ended = readInput(buffer, checkpoint: checkpoint) { return ended }
                    // Replies the session sent are written before the loop waits again.
                    continue
                }
                // While flushing, input waits; while draining, it is read and dropped.
                if case .draining(let reason) = phase, drainInput(buffer) { return reason }
            }
            if let reason = phase.reason, time.now >= lingerDeadline {
                return reason
            }
            if checkDeadlines() { continue }
            return nil
        }
    }

    /// Writes what ``advance(input:buffer:holdingWrites:checkpoint:)`` made holding its writes: one write
    /// when that is all there is to do, as it mostly is (a reply); anything more (output
    /// queued meanwhile, a stream's next chunk, a close) goes the whole way through `advance`.
    ///
    /// - Returns: why the connection ended, once it did; then call ``finish(_:)``.
    func writeHeld(buffer: UnsafeMutableRawBufferPointer) -> LineConnection.CloseReason? {
        guard isServing else { return advance(input: false, buffer: buffer) }
        let (failure, queuedMeanwhile) = flush()
        if let failure { return failure }
        if outgoingOffset >= outgoing.count, hasMoreOutput || queuedMeanwhile == true {
            return advance(input: false, buffer: buffer)
        }
        return nil
    }

    /// Releases what the connection holds once it ended; the socket is closed (remove it
    /// from the loop's queue first). `session.closed` has not been called yet.
    ///
    /// - Returns: why it ended: the first reason recorded.
    func finish(_ reason: LineConnection.CloseReason) -> LineConnection.CloseReason {
        let unsent = connection.shared.withLock { state -> Int in
            state.lifecycle = .closed(state.closeRequest ?? reason)
            state.queued = []
            defer { state.unsent = 0 }
            return state.unsent
        }
        connection.budget.release(unsent)
        pending = []
        stream?.cancel()
        stream = nil
        socket.close()
        return connection.closeReason ?? reason
    }

    /// Whether output is ready to be made into `outgoing` now: a streamed line's next piece
    /// only once its lane made it (and nothing queued after the line before it is complete).
    private var hasMoreOutput: Bool {
        if let stream { return stream.hasOutput }
        return pendingStart < pending.count
    }

    /// Moves newly sent output to the local queue and reports a pending close request.
    private func takeQueuedOutput() -> LineConnection.CloseReason? {
        connection.shared.withLock { state in
            state.wakePending = false
            // Lines read last are all handed on (see `readInput`): replies sent from now on
            // wake the loop again.
            state.dispatching = false
            if !state.queued.isEmpty {
                if pendingStart >= pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingStart = 0
                }
                if pending.isEmpty {
                    swap(&pending, &state.queued)
                } else {
                    pending.append(contentsOf: state.queued)
                    state.queued.removeAll(keepingCapacity: true)
                }
            }
            return state.closeRequest
        }
    }

    /// Once the socket took everything, refills `outgoing` with up to about a chunk of queued
    /// lines and streamed pieces, in order.
    private func fillOutgoing() {
        guard outgoingOffset >= outgoing.count else { return }
        outgoing.removeAll(keepingCapacity: outgoing.capacity <= 2 * Self.chunkSize)
        outgoingOffset = 0
        var produced = 0
        while outgoing.count < Self.chunkSize {
            if let line = stream {
                let (piece, complete) = line.take()
                if complete { stream = nil }
                if !piece.isEmpty {
                    if outgoing.isEmpty { outgoing = piece } else { outgoing.append(contentsOf: piece) }
                    produced += piece.count
                }
                // The next piece is being made on the lane: the loop writes what it has.
                if complete { continue }
                break
            }
            guard pendingStart < pending.count else { break }
            // Moved out, not copied: a copy took a retain, and emptying the slot a release.
            var next = LineConnection.Output.bytes([])
            swap(&next, &pending[pendingStart])
            pendingStart += 1
            switch next {
            case .bytes(let bytes) where outgoing.isEmpty:
                outgoing = bytes
            case .bytes(let bytes):
                outgoing.append(contentsOf: bytes)
            case .stream(let line):
                stream = line
                // It is being made now: its bytes count as they are produced instead.
                connection.budget.release(LineConnection.queuedStreamCost)
                connection.shared.withLock { $0.unsent -= LineConnection.queuedStreamCost }
            }
        }
        if produced > 0 {
            // Streamed bytes are counted once made; the peer is keeping up, so never refused.
            _ = connection.budget.reserve(produced, holding: 0)
            connection.shared.withLock { $0.unsent += produced }
        }
    }

    /// Writes what the socket accepts without blocking.
    ///
    /// - Returns: a close reason if the socket failed; and, when anything was written,
    ///   whether more output was queued meanwhile (asked under the lock that counts what was
    ///   written, so the caller need not take it again).
    private func flush() -> (failure: LineConnection.CloseReason?, queuedMeanwhile: Bool?) {
        var written = 0
        var failure: LineConnection.CloseReason?
        var blocked = false
        defer {
            if written > 0 { stalledSince = nil }
            if blocked, stalledSince == nil { stalledSince = time.now }
        }
        while outgoingOffset < outgoing.count, writtenThisTurn < Self.maxWritePerTurn {
            let end = outgoingOffset + min(outgoing.count - outgoingOffset, Self.maxWritePerTurn - writtenThisTurn)
            let result = outgoing.withUnsafeBytes { raw in
                Result { () throws(SocketError) in
                    try socket.write(UnsafeRawBufferPointer(rebasing: raw[outgoingOffset..<end]))
                }
            }
            switch result {
            case .success(let count):
                outgoingOffset += count
                written += count
                writtenThisTurn += count
                continue
            case .failure(let error) where error.isWouldBlock:
                blocked = true
            case .failure(let error):
                failure = .failed(errno: error.errno ?? EIO)
            }
            break
        }
        guard written > 0 else { return (failure, nil) }
        lastActivity = time.now
        let queuedMeanwhile = connection.shared.withLock { state -> Bool in
            state.unsent -= written
            return !state.queued.isEmpty
        }
        connection.budget.release(written)
        return (failure, queuedMeanwhile)
    }

    /// What one read of the socket gave.
    private enum ReadOutcome {
        /// Bytes, now in the framer.
        case read
        /// Nothing yet.
        case wouldBlock
        /// The peer closed its end.
        case ended
        case failed(LineConnection.CloseReason)
    }

    /// A read made ahead of this turn's answers (``readAhead(_:)``), not yet acted on.
    private var readAheadOutcome: ReadOutcome?

    /// The first half of a turn: reads once from a serving connection into its framer and
    /// hands nothing on yet; the loop reads every ready connection so, passes the
    /// ``ChangeCheckpoint``, then calls ``advance(input:buffer:holdingWrites:checkpoint:)``,
    /// which answers what was read.
    func readAhead(_ buffer: UnsafeMutableRawBufferPointer) {
        guard isServing, readAheadOutcome == nil else { return }
        readAheadOutcome = readSocket(buffer)
    }

    private func readSocket(_ buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        let count: Int
        do {
            count = try socket.read(into: buffer)
        } catch {
            return error.isWouldBlock ? .wouldBlock : .failed(.failed(errno: error.errno ?? EIO))
        }
        guard count > 0 else { return .ended }
        lastActivity = time.now
        framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        return .read
    }

    /// Reads once (unless the loop read ahead) and hands every complete line to the session.
    ///
    /// - Returns: a close reason when the connection must end now.
    private func readInput(
        _ buffer: UnsafeMutableRawBufferPointer, checkpoint passed: ChangeCheckpoint
    ) -> LineConnection.CloseReason? {
        let outcome: ReadOutcome
        let checkpoint: ChangeCheckpoint
        if let ahead = readAheadOutcome {
            outcome = ahead
            readAheadOutcome = nil
            checkpoint = passed
        } else {
            // Read after this turn's checkpoint: what it brings may follow an unheard change.
            outcome = readSocket(buffer)
            checkpoint = .none
        }
        switch outcome {
        case .failed(let reason): return reason
        case .wouldBlock: return nil
        case .ended:
            // A partial last line is dropped; replies already queued are still flushed,
            // which serves clients that half-close after their request.
            beginClosing(.peerClosed)
            return nil
        case .read: break
        }
        // Replies sent while dispatching are picked up by the loop without a wake-up; the
        // loop's next step (`takeQueuedOutput`, which `advance` always takes after this)
        // ends the dispatch under the lock it takes anyway.
        connection.shared.withLock { $0.dispatching = true }
        var first = true
        while true {
            let line: [UInt8]?
            switch framer.next() {
            case .success(let message): line = message
            case .failure(.lineTooLong):
                if let reply = session.lineTooLong(on: connection) { connection.send(reply) }
                connection.requestClose(.lineTooLong)
                return nil
            case .failure(.requestTooLarge(let overflow)):
                if let reply = session.requestTooLarge(overflow, on: connection) { connection.send(raw: reply) }
                connection.requestClose(.lineTooLong)
                return nil
            }
            guard let line else { return nil }
            // No line is handed on once a close was asked for (by a reply, or another thread).
            if !first, connection.shared.withLock({ $0.closeRequest != nil }) { return nil }
            first = false
            session.received(line: line, on: connection, checkpoint: checkpoint)
        }
    }

    /// Reads and drops input while closing. Returns true once the peer is gone.
    private func drainInput(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        do {
            return try socket.read(into: buffer) == 0
        } catch {
            return !error.isWouldBlock
        }
    }

    private func beginClosing(_ reason: LineConnection.CloseReason) {
        guard isServing else { return }
        connection.requestClose(reason)
        // The first request wins, so report whatever the connection actually recorded.
        let recorded = connection.shared.current.closeRequest ?? reason
        lingerDeadline = time.now + Self.lingerTimeout
        phase = .flushing(recorded)
    }

    /// Ends a connection whose idle time or authentication deadline has passed.
    /// - Returns: true when it began closing.
    private func checkDeadlines() -> Bool {
        guard isServing else { return false }
        let now = time.now
        // Once trusted, never again (`trusted` is set where the deadline is asked for).
        if !trusted, case .unauthenticated(let deadline) = connection.shared.withLock({ $0.trust }), now >= deadline {
            beginClosing(.authenticationTimeout)
            return true
        } else if let idleTimeout, now - lastActivity >= idleTimeout {
            beginClosing(.idleTimeout)
            return true
        } else if let stall = stallDeadline, now >= stall {
            beginClosing(.outputStalled)
            return true
        }
        return false
    }
}

/// A connection's input cut into messages, as its server's ``LineServerLimits/framing`` says:
/// a closed set, so the loop's hot path (lines) calls no protocol witness.
enum InputFramer {
    case lines(LineFramer)
    case http(HTTPFramer)

    /// Why input could not be cut: a message over its limit.
    enum Failure: Error {
        case lineTooLong
        case requestTooLarge(HTTPFramer.Overflow)
    }

    /// Input received and not yet handed over.
    var pendingByteCount: Int {
        switch self {
        case .lines(let framer): framer.pendingByteCount
        case .http(let framer): framer.pendingByteCount
        }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .lines(var framer):
            self = .http(HTTPFramer(maxHead: 0, maxBody: 0))
            framer.append(bytes)
            self = .lines(framer)
        case .http(var framer):
            self = .lines(LineFramer(maxLineLength: 0))
            framer.append(bytes)
            self = .http(framer)
        }
    }

    /// The next whole message, nil until one arrived.
    mutating func next() -> Result<[UInt8]?, Failure> {
        switch self {
        case .lines(var framer):
            self = .http(HTTPFramer(maxHead: 0, maxBody: 0))
            defer { self = .lines(framer) }
            do {
                return .success(try framer.nextLine())
            } catch {
                return .failure(.lineTooLong)
            }
        case .http(var framer):
            self = .lines(LineFramer(maxLineLength: 0))
            defer { self = .http(framer) }
            do {
                return .success(try framer.nextRequest())
            } catch {
                return .failure(.requestTooLarge(error))
            }
        }
    }
}
