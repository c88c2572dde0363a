import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport

/// `jarvis web`'s server: HTTP/1.1 on the loopback address, one thread per connection (a few
/// at a time: a browser and its pages), every request checked by ``WebGuard`` first.
///
/// Everything is served under a random path (``WebGuard/root``, the cookie's scope). Routes
/// under it: the page (and the one-time secret's exchange), the page's files, and under
/// `api/pages` one ``WebPage`` per open browser page: its intents, its table's rows by
/// window, and its live stream of server-sent events.
public final class WebServer: Sendable {
    /// The port the server listens on.
    public let port: UInt16
    let listener: Socket
    let guardian: WebGuard
    let options: WebOptions
    let pages = Locked<[String: WebPage]>([:])
    /// The file the browser was given, until the secret is used.
    let launchFile = Locked<WebLaunchFile?>(nil)
    /// How many requests with the session cookie are being answered (or streamed) now.
    let served = Locked(0)
    private let stopped = Locked(false)

    /// The most requests with the session cookie answered at once (a browser and its pages);
    /// more are refused with 503.
    static let maxConnections = 32
    /// The most connections whose first request is still arriving (nobody knows yet whether
    /// they carry the cookie); a new one pushes out the oldest. Any local user can open
    /// these, so they are few, cheap (no thread: one loop reads them all) and short-lived.
    static let maxPending = 16
    /// How long a client has to send a whole request after connecting: a browser on the
    /// loopback sends it at once.
    static let requestTimeout: Duration = .seconds(3)
    /// How long a page lives with no stream and no request.
    static let pageIdle: Duration = .seconds(30)

    /// Listens on `127.0.0.1:port` (0: any free port).
    /// - Parameters:
    ///   - agent: the agent `--agent` chose; nil for the only one running.
    ///   - token: the TCP token for an agent over TCP.
    /// - Throws: ``JarvisError`` `.unavailable` when the port cannot be bound.
    public init(port: UInt16 = 0, agent: String? = nil, token: String? = nil) throws(JarvisError) {
        do {
            listener = try Socket.listen(on: .tcp(host: "127.0.0.1", port: port), backlog: 64)
        } catch {
            throw JarvisError(.unavailable, "cannot listen on 127.0.0.1:\(port): \(error); choose another --port")
        }
        self.port = listener.boundPort ?? port
        guardian = WebGuard(port: self.port)
        options = WebOptions(selector: agent, token: token)
    }

    /// The address to open, with the one-time secret.
    public var address: String { "http://127.0.0.1:\(port)\(guardian.root)?k=\(guardian.pendingSecret ?? "")" }

    /// Writes a private file (mode 0600, in a fresh 0700 folder) that takes a browser to
    /// ``address``, and returns its `file://` address: what to give `open`/`xdg-open`, whose
    /// command lines every user of the machine can read. The file is removed once the secret
    /// is used, or when the server stops.
    /// - Throws: ``JarvisError`` `.storage` when the file cannot be made.
    public func writeLaunchFile() throws(JarvisError) -> String {
        let file = try WebLaunchFile.write(address: address)
        launchFile.withLock { $0 = file }
        return file.url
    }

    /// Serves until ``stop()``; blocks the calling thread.
    ///
    /// This thread reads every connection's first request (see ``maxPending``); a request with
    /// the session cookie then gets a thread of its own (see ``maxConnections``), while any
    /// other (a refusal, or the secret's exchange) is answered here at once.
    public func run() {
        let reaper = Thread { [self] in reap() }
        reaper.name = "jarvis-web-reaper"
        reaper.start()
        do {
            let queue = try makeEventQueue()
            defer { queue.close() }
            try queue.add(listener.fileDescriptor, interest: .read)
            var pending = PendingConnections(queue: queue)
            defer { pending.closeAll() }
            var ready: [ReadyEvent] = []
            while !stopped.current {
                let wait = min(.milliseconds(500), max(.zero, (pending.nextDeadline ?? .now + .seconds(1)) - .now))
                try queue.wait(timeout: Int32(wait.components.attoseconds / 1_000_000_000_000_000) + 1, into: &ready)
                var incoming = false
                for event in ready {
                    if event.descriptor == listener.fileDescriptor {
                        incoming = true
                    } else if let (socket, outcome) = pending.read(event.descriptor) {
                        dispatch(outcome, socket)
                    }
                }
                // One new connection per turn: those already waiting are read first, so a
                // crowd of new connections cannot push one out before its request is read.
                if incoming, let (socket, _) = try? listener.accept() {
                    pending.add(socket, deadline: .now + Self.requestTimeout, limit: Self.maxPending)
                }
                pending.dropExpired(now: .now)
            }
        } catch {
            FileHandle.standardError.write(Data("jarvis web: the server stopped: \(error)\n".utf8))
        }
        listener.close()
        launchFile.withLock { file in
            file?.remove()
            file = nil
        }
        for page in pages.withLock({ pages in Array(pages.values) }) { page.work.sync { page.close() } }
    }

    /// Answers a connection's first request: with the session cookie on a thread of its own,
    /// anything else at once (a refusal, the exchange: nothing that waits).
    private func dispatch(_ outcome: HTTPRequest.Outcome, _ socket: Socket) {
        guard case .request(let request, _) = outcome else {
            if case .refused(let status, let reason) = outcome {
                try? socket.writeAll(HTTPResponse.refusal(status, reason).serialized(), timeout: .milliseconds(100))
            }
            socket.close()
            return
        }
        guard guardian.hasSession(request) else {
            if let response = respond(request, socket: socket) {
                try? socket.writeAll(response.serialized(), timeout: .milliseconds(100))
            }
            socket.close()
            return
        }
        let admitted = served.withLock { count -> Bool in
            guard count < Self.maxConnections else { return false }
            count += 1
            return true
        }
        guard admitted else {
            try? socket.writeAll(HTTPResponse.refusal(503, "too many requests at once").serialized(), timeout: .milliseconds(100))
            socket.close()
            return
        }
        // The loop reads without blocking; the request's own thread waits as it always has.
        try? socket.setNonBlocking(false)
        let thread = Thread { [self] in
            if let response = respond(request, socket: socket) {
                try? socket.writeAll(response.serialized(), timeout: .seconds(10))
            }
            socket.close()
            served.withLock { $0 -= 1 }
        }
        thread.name = "jarvis-web-connection"
        thread.start()
    }

    /// Stops serving; ``run()`` returns within half a second.
    public func stop() { stopped.withLock { $0 = true } }

    /// How many pages are open.
    public var openPages: Int { pages.withLock { $0.count } }

    /// Closes pages nobody has held for ``pageIdle``.
    private func reap() {
        while !stopped.current {
            Thread.sleep(forTimeInterval: 2)
            let now = ContinuousClock.now
            let idle = pages.withLock { pages -> [WebPage] in
                let gone = pages.values.filter { now - $0.lastSeen.current > Self.pageIdle }
                for page in gone { pages[page.id] = nil }
                return gone
            }
            for page in idle { page.work.async { page.close() } }
        }
    }
}
