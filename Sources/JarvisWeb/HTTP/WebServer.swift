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
    /// they carry the cookie). Any local user can open these, so they are cheap (no thread:
    /// one loop reads them all) and short-lived; see ``PendingConnections``.
    static let maxPending = 64
    /// How long a connection keeps its place among ``maxPending`` before a newcomer may push
    /// it out: longer than a busy machine keeps a browser from writing the request it just
    /// connected for. Pushed out by arrival count alone, a connection lasted half a
    /// millisecond under a crowd that reconnects at once, and the page's requests were lost.
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
    /// How long a page lives with no stream and no request.
    static let pageIdle: Duration = .seconds(30)

    /// Listens on `127.0.0.1:port` (0: any free port).
    /// - Parameters:
    ///   - agent: the agent `--agent` chose; nil for the only one running.
    ///   - token: the TCP token for an agent over TCP.
    /// - Throws: ``JarvisError`` `.unavailable` when the port cannot be bound.
    public init(port: UInt16 = 0, agent: String? = nil, token: String? = nil) throws(JarvisError) {
        do {
            listener = try Socket.listen(on: .tcp(host: "127.0.0.1", port: port), backlog: Self.backlog)
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
            // Accepting stops when no connection can be taken; the listener must not block then.
            try listener.setNonBlocking()
            try queue.add(listener.fileDescriptor, interest: .read)
            var listening = true
            var pending = PendingConnections(
                queue: queue, limit: Self.maxPending, grace: Self.pendingGrace, budget: Self.pendingBudget)
            defer { pending.closeAll() }
            var ready: [ReadyEvent] = []
            while !stopped.current {
                let wake = [pending.nextDeadline, listening ? nil : pending.nextRoom].compactMap { $0 }.min()
                let wait = min(.milliseconds(500), max(.zero, (wake ?? .now + .seconds(1)) - .now))
                try queue.wait(timeout: Int32(clamping: wait.wholeMilliseconds(rounded: .up)), into: &ready)
                for event in ready where event.descriptor != listener.fileDescriptor {
                    if let (socket, outcome) = pending.read(event.descriptor) { dispatch(outcome, socket) }
                }
                // Those already waiting are read first; then everyone the kernel holds, while
                // there is room, each read at once (a request that arrived whole takes no place).
                while pending.hasRoom(now: .now), let (socket, _) = try? listener.accept() {
                    let now = ContinuousClock.now
                    if let (socket, outcome) = pending.add(socket, now: now, deadline: now + Self.requestTimeout) {
                        dispatch(outcome, socket)
                    }
                }
                pending.dropExpired(now: .now)
                // With no room, the listener is left out of the wait (it stays ready and would
                // wake the loop at once), until the oldest's grace ends.
                let room = pending.hasRoom(now: .now)
                if room != listening {
                    if room {
                        try queue.add(listener.fileDescriptor, interest: .read)
                    } else {
                        queue.remove(listener.fileDescriptor)
                    }
                    listening = room
                }
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
            try? socket.writeAll(
                HTTPResponse.refusal(503, "too many requests at once").serialized(), timeout: .milliseconds(100))
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
            let idle = pages.withLock { pages in pages.values.filter { now - $0.lastSeen.current > Self.pageIdle } }
            // Decided on the page's queue, after whatever it is doing: a page busy for longer
            // than it may idle (opening 100,000 keys on a loaded machine) is held, not idle.
            for page in idle {
                page.work.async { [self] in
                    guard ContinuousClock.now - page.lastSeen.current > Self.pageIdle else { return }
                    pages.withLock { $0[page.id] = nil }
                    page.close()
                }
            }
        }
    }
}
