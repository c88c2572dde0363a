import Dispatch
import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport

/// `jarvis web`'s server: HTTP/1.1 on the loopback address, served by `JarvisTransport`'s
/// readiness loop (``LineServer`` with HTTP framing) and its ``WorkPool``, as the agent is.
///
/// The loop reads requests, answers what costs nothing (a refusal, the secret's exchange, the
/// page's files) and writes bytes; everything a page does (its session on the agent, its
/// views, rows and intents, its live stream's redraws) runs as jobs on the page's
/// ``WorkLane``, one at a time. Connections that have not sent a whole request are held to
/// the transport's one admission policy (``LineServerLimits/pendingGrace``). Every request is
/// checked by ``WebGuard`` first.
///
/// Everything is served under a random path (``WebGuard/root``, the cookie's scope). Routes
/// under it: the page (and the one-time secret's exchange), the page's files, and under
/// `api/pages` one ``WebPage`` per open browser page: its intents, its table's rows by
/// window, and its live stream of server-sent events.
public final class WebServer: Sendable {
    /// The port the server listens on.
    public let port: UInt16
    let server: LineServer
    let router: WebRouter
    private let stopped = DispatchSemaphore(value: 0)

    /// The most requests with the session cookie answered (or streamed) at once: a browser
    /// and its pages; more are refused with 503.
    static let maxConnections = 32
    /// The most connections whose first request is still arriving (nobody knows yet whether
    /// they carry the cookie). Any local user can open these, so they are cheap (no thread)
    /// and short-lived: the transport's admission policy holds them.
    static let maxPending = 64
    /// How long a connection keeps its place among ``maxPending`` before a newcomer may push
    /// it out: longer than a busy machine keeps a browser from writing the request it just
    /// connected for.
    static let pendingGrace: Duration = .milliseconds(100)
    /// The most bytes the connections among ``maxPending`` hold together (a request may be
    /// up to 1 MiB; a browser's are small).
    static let pendingBudget = 16 << 20
    /// How many connections the kernel keeps for the server while every place is within its
    /// grace (the system may cap it, at `somaxconn`).
    static let backlog: Int32 = 1024
    /// How long a client has to send a whole request after connecting: a browser on the
    /// loopback sends it at once.
    static let requestTimeout: Duration = .seconds(3)
    /// How long a page lives with no stream and no request: a day. A tab the browser froze in
    /// the background, or whose laptop slept overnight, is silent that long, and wakes with
    /// its page (its draft, its place) still there; a tab that closes says so
    /// (``WebRoute/closePage``) and its page goes at once.
    static let pageIdle: Duration = .seconds(24 * 60 * 60)
    /// The most pages kept with no live stream (a page costs some 40 KB beside its agent's
    /// shared listing): opening one more closes the one silent longest.
    static let maxSilentPages = 64
    /// The transport's limits for the page's server.
    static let limits = LineServerLimits(
        maxConnections: maxConnections + maxPending + 8, idleTimeout: nil,
        maxPendingOutputBytes: 256 << 20, authenticationTimeout: requestTimeout,
        maxUnauthenticatedConnections: maxPending, pendingGrace: pendingGrace,
        maxUnauthenticatedInputBytes: pendingBudget, backlog: backlog,
        framing: .http(maxHead: HTTPRequest.Limits().wholeHead, maxBody: HTTPRequest.Limits().body))

    /// Listens on `127.0.0.1:port` (0: any free port) and starts serving.
    /// - Parameters:
    ///   - agent: the agent `--agent` chose; nil for the only one running.
    ///   - token: the TCP token for an agent over TCP.
    /// - Throws: ``JarvisError`` `.unavailable` when the port cannot be bound.
    public init(port: UInt16 = 0, agent: String? = nil, token: String? = nil) throws(JarvisError) {
        let routerBox = Locked<WebRouter?>(nil)
        let server = LineServer(endpoints: [.tcp(host: "127.0.0.1", port: port)], limits: Self.limits) { _ in
            WebSession(router: routerBox.current)
        }
        do {
            try server.start()
        } catch {
            throw JarvisError(.unavailable, "cannot listen on 127.0.0.1:\(port): \(error); choose another --port")
        }
        var bound = port
        if case .tcp(_, let chosen)? = server.boundEndpoints.first { bound = chosen }
        self.port = bound
        self.server = server
        router = WebRouter(guardian: WebGuard(port: bound), options: WebOptions(selector: agent, token: token))
        routerBox.withLock { $0 = router }
    }

    /// The address to open, with the one-time secret.
    public var address: String {
        "http://127.0.0.1:\(port)\(router.guardian.root)?k=\(router.guardian.pendingSecret ?? "")"
    }

    /// Writes a private file (mode 0600, in a fresh 0700 folder) that takes a browser to
    /// ``address``, and returns its `file://` address: what to give `open`/`xdg-open`, whose
    /// command lines every user of the machine can read. The file is removed once the secret
    /// is used, or when the server stops.
    /// - Throws: ``JarvisError`` `.storage` when the file cannot be made.
    public func writeLaunchFile() throws(JarvisError) -> String {
        let file = try WebLaunchFile.write(address: address)
        router.launchFile.withLock { $0 = file }
        return file.url
    }

    /// Blocks the calling thread until ``stop()``; the server serves from the moment it was
    /// made, on its own loop.
    public func run() {
        stopped.wait()
        stopped.signal()
    }

    /// Stops serving and closes every page; ``run()`` returns.
    public func stop() {
        server.stop()
        router.closeAll()
        stopped.signal()
    }

    /// How many pages are open.
    public var openPages: Int { router.pages.withLock { $0.count } }
}
