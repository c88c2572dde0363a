import Dispatch
import JarvisCore
import JarvisTransport

/// The page's live stream of server-sent events: a `view` event whenever the model changed
/// (coalesced), at the end of a change mark, and a comment every 15 seconds. Nothing waits
/// for it: a change asks the page's lane for a redraw, a timer asks once a second while the
/// stream is open (for agents that come and go, and to reconnect), and the transport writes
/// the bytes. It ends when the browser goes away or a newer stream for the page starts.
///
/// One stream may carry several pages (`api/stream?pages=…`: a browser's tabs share one, so
/// that they never hold one of its few connections each); every event's data names its
/// page: `{"page":ID,"view":{…}}`. A page that moves to a newer stream leaves the older one
/// to the browser, which closes it.
extension WebPage {
    /// The stream's state, shared by the loop (attach, close), the lane (redraws) and timers.
    struct LiveStream {
        /// The connection of the stream, while one is open.
        var connection: LineConnection?
        /// Counts streams, so that a timer of an older one stops.
        var generation = 0
        /// A redraw was asked of the lane and has not run yet.
        var redrawQueued = false
        /// The `version` of the last view sent; -1 before the first.
        var sentVersion = -1
        /// The end of a change mark the stream waits for. Asked again once it passed, the
        /// model names only marks still to end, so the stream keeps the one it waited for.
        var markEnd: ContinuousClock.Instant?
        /// When the stream last wrote.
        var lastWrite = ContinuousClock.now
    }

    /// How often an open stream looks for agents and reconnects.
    static let streamTick: Duration = .seconds(1)
    /// How long a quiet stream waits before a comment keeps it open.
    static let keepAlive: Duration = .seconds(15)

    /// Whether a live stream is open: the page is held.
    var isStreaming: Bool { stream.withLock { $0.connection != nil } }

    /// Makes `connection` (whose head was sent) the page's live stream: its first view goes
    /// out as soon as the lane draws it.
    func attachStream(_ connection: LineConnection) {
        let generation = stream.withLock { state -> Int in
            state.connection = connection
            state.generation += 1
            state.sentVersion = -1
            state.markEnd = nil
            state.lastWrite = .now
            return state.generation
        }
        touch()
        requestRedraw()
        scheduleTick(generation)
    }

    /// `connection` closed: if it was the live stream, the stream ended.
    func streamClosed(_ connection: LineConnection) {
        let ended = stream.withLock { state -> Bool in
            guard state.connection === connection else { return false }
            state.connection = nil
            state.generation += 1
            return true
        }
        guard ended else { return }
        touch()
        onStreamEnded(self)
    }

    /// Asks the lane to redraw the stream; one request waits at a time. Any thread.
    func requestRedraw() {
        let submit = stream.withLock { state -> Bool in
            guard state.connection != nil, !state.redrawQueued else { return false }
            state.redrawQueued = true
            return true
        }
        if submit { lane.submit { [self] in redraw() } }
    }

    /// Sends a view if anything changed or a mark ended, or a keep-alive when quiet; then
    /// sets a timer for the next mark's end. On the lane.
    private func redraw() {
        guard
            let connection = stream.withLock({ state -> LineConnection? in
                state.redrawQueued = false
                return state.connection
            })
        else { return }
        touch()
        tick()
        let (first, markPassed) = stream.withLock { state in
            (state.sentVersion < 0, state.markEnd.map { $0 <= .now } ?? false)
        }
        if changed.current || first || markPassed {
            let view = view()
            let payload = JSONWriter.string(WebEncoder.encode(WebStreamEvent(page: id, view: view)))
            stream.withLock { state in
                state.markEnd = nil
                state.sentVersion = view.version
                state.lastWrite = .now
            }
            connection.send(raw: HTTPResponse.event("view", payload))
        } else if stream.withLock({ ContinuousClock.now - $0.lastWrite > Self.keepAlive }) {
            stream.withLock { $0.lastWrite = .now }
            connection.send(raw: Array(": keep-alive\n\n".utf8))
        }
        guard let next = nextDeadline() else { return }
        let wait = stream.withLock { state -> Duration? in
            guard state.markEnd.map({ next < $0 }) ?? true else { return nil }
            state.markEnd = next
            return next - .now
        }
        if let wait {
            let milliseconds = max(5, Int(clamping: wait.wholeMilliseconds(rounded: .up)))
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [weak self] in
                self?.requestRedraw()
            }
        }
    }

    /// While stream `generation` is open: a redraw once a second.
    private func scheduleTick(_ generation: Int) {
        let milliseconds = Int(clamping: Self.streamTick.wholeMilliseconds(rounded: .up))
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [weak self] in
            guard let self, stream.withLock({ $0.generation == generation && $0.connection != nil }) else { return }
            requestRedraw()
            scheduleTick(generation)
        }
    }
}
