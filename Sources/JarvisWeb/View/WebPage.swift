import Dispatch
import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote
import JarvisTransport

/// One open browser page: its identity, what its live stream waits on, and its state
/// (``WebPageState``), which the page draws with ``view()`` and changes with ``handle(_:)``.
///
/// Threading: the state sits in a lock and is reached only on `work`, a serial queue (see
/// ``held(_:)``), so intents, the live stream's redraws and reconnecting run one at a time. The
/// session's change handler only raises a flag and wakes the stream.
final class WebPage: Sendable {
    /// The page's identity in URLs.
    let id: String
    let options: WebOptions
    let work = DispatchQueue(label: "jarvis.web.page")
    /// Signalled on every change of the model, for the live stream.
    let wake: DispatchSemaphore
    /// Raised by the session's change handler; taken by ``view()``.
    let changed: Locked<Bool>
    /// When a stream last ran or an intent arrived: a page nobody holds is closed.
    let lastSeen = Locked(ContinuousClock.now)
    /// The newest live stream; an older one ends.
    let streamGeneration = Locked(0)
    private let state: Locked<WebPageState>

    /// Runs `body` on `work` for a request or the stream: the page counts as held until it ends.
    func held<T>(_ body: () -> T) -> T {
        work.sync {
            defer { lastSeen.withLock { $0 = .now } }
            return body()
        }
    }

    init(id: String, options: WebOptions) {
        self.id = id
        self.options = options
        let (changed, wake) = (Locked(true), DispatchSemaphore(value: 0))
        self.changed = changed
        self.wake = wake
        state = Locked(WebPageState(options: options, changed: changed, wake: wake))
    }

    // MARK: - On `work`

    /// Connects to the agent `selector` names (nil: the one `--agent` chose, or the only one running).
    func connect(_ selector: String?) { state.withLock { $0.connect(selector) } }

    /// Ends the session.
    func close() { state.withLock { $0.close() } }

    /// Reconnects to an agent that went away, as often as the model says.
    func tick() { state.withLock { $0.tick() } }

    /// The page as the browser draws it.
    func view() -> JSONValue { state.withLock { $0.view() } }

    /// A window of the table.
    func rowsWindow(from start: Int, count: Int) -> JSONValue {
        state.withLock { $0.rowsWindow(from: start, count: count) }
    }

    /// Acts on one intent of the page.
    func handle(_ request: JSONValue) -> JSONValue { state.withLock { $0.handle(request) } }

    /// When the view changes by itself next (a change mark ends).
    func nextDeadline() -> ContinuousClock.Instant? { state.withLock { $0.nextDeadline() } }
}

/// What every page shares: the agent `--agent` chose and the TCP token.
struct WebOptions: Sendable {
    /// `--agent` (or `JARVIS_AGENT`); nil: the only agent running, or the user picks.
    var selector: String?
    /// The TCP token; nil uses the local discovery file's.
    var token: String?
}
