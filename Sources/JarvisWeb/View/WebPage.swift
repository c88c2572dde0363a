import Dispatch
import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote
import JarvisTransport

/// One open browser page: its identity, its live stream, and its state (``WebPageState``),
/// which the page draws with ``view()`` and changes with ``handle(_:)``.
///
/// Threading: the state sits in a lock and is reached only by jobs of `lane` (the page's line
/// of work on the server's ``WorkPool``), which run one at a time, so intents, the live
/// stream's redraws and reconnecting never overlap and the lock is never waited for; no
/// thread is the page's own. The session's change handler only raises a flag and asks the
/// lane for a redraw.
final class WebPage: Sendable {
    /// The page's identity in URLs.
    let id: String
    let options: WebOptions
    /// Where everything the page does runs, one job at a time.
    let lane: WorkLane
    /// Raised by the session's change handler; taken by ``view()``.
    let changed: Locked<Bool>
    /// When a request or the stream last held the page: a page nobody holds is closed.
    let lastSeen = Locked(ContinuousClock.now)
    /// Whether a check that closes the page once idle waits (see `WebRouter.scheduleIdleCheck`).
    let idleCheckWaits = Locked(false)
    /// The live stream, if one is open (see `WebPage+Stream.swift`).
    let stream = Locked(LiveStream())
    /// Told when the live stream closed (the page may now idle).
    let onStreamEnded: @Sendable (WebPage) -> Void
    private let state: Locked<WebPageState>

    init(
        id: String, options: WebOptions, lane: WorkLane, onStreamEnded: @escaping @Sendable (WebPage) -> Void = { _ in }
    ) {
        self.id = id
        self.options = options
        self.lane = lane
        self.onStreamEnded = onStreamEnded
        let changed = Locked(true)
        self.changed = changed
        // The state tells the page of changes through a box filled once the page exists.
        let page = Locked<WeakPage?>(nil)
        state = Locked(
            WebPageState(options: options, changed: changed) { page.current?.page?.requestRedraw() })
        page.withLock { $0 = WeakPage(page: self) }
    }

    /// The page is held now (a request, its stream).
    func touch() {
        lastSeen.withLock { $0 = .now }
    }

    // MARK: - On `lane`

    /// Connects to the agent `selector` names (nil: the one `--agent` chose, or the only one running).
    func connect(_ selector: String?) { state.withLock { $0.connect(selector) } }

    /// Ends the session.
    func close() { state.withLock { $0.close() } }

    /// Reconnects to an agent that went away, as often as the model says.
    func tick() { state.withLock { $0.tick() } }

    /// The page as the browser draws it.
    func view() -> WebView { state.withLock { $0.view() } }

    /// A window of the table.
    func rowsWindow(from start: Int, count: Int) -> WebRowsWindow {
        state.withLock { $0.rowsWindow(from: start, count: count) }
    }

    /// Acts on one intent of the page.
    func handle(_ request: JSONValue) -> WebAnswer { state.withLock { $0.handle(request) } }

    /// The agent's listing the page uses, shared with the other pages on it; nil with no agent.
    var listing: WebListing? { state.withLock { $0.connection?.listing } }

    /// When the view changes by itself next (a change mark ends).
    func nextDeadline() -> ContinuousClock.Instant? { state.withLock { $0.nextDeadline() } }
}

/// The page, not kept alive by its own state's change handler.
private struct WeakPage: Sendable {
    weak var page: WebPage?
}

/// What every page shares: the agent `--agent` chose and the TCP token.
struct WebOptions: Sendable {
    /// `--agent` (or `JARVIS_AGENT`); nil: the only agent running, or the user picks.
    var selector: String?
    /// The TCP token; nil uses the local discovery file's.
    var token: String?
    /// The agents' listings, shared by every page open on one agent.
    var listings = WebListings()
}
