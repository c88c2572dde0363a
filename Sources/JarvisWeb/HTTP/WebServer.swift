import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport

/// `jarvis web`'s server: HTTP/1.1 on the loopback address, one thread per connection (a few
/// at a time: a browser and its pages), every request checked by ``WebGuard`` first.
///
/// Routes: `/` (the page, and the one-time secret's exchange), the page's files, and under
/// `/api/pages` one ``WebPage`` per open browser page: its intents, its table's rows by
/// window, and its live stream of server-sent events.
public final class WebServer: Sendable {
    /// The port the server listens on.
    public let port: UInt16
    let listener: Socket
    let guardian: WebGuard
    let options: WebOptions
    let pages = Locked<[String: WebPage]>([:])
    private let connections = Locked(0)
    private let stopped = Locked(false)

    /// The most connections served at once; more wait in the listen queue.
    static let maxConnections = 32
    /// How long a client has to send a whole request.
    static let requestTimeout: Duration = .seconds(10)
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
    public var address: String { "http://127.0.0.1:\(port)/?k=\(guardian.pendingSecret ?? "")" }

    /// Serves until ``stop()``; blocks the calling thread.
    public func run() {
        let reaper = Thread { [self] in reap() }
        reaper.name = "jarvis-web-reaper"
        reaper.start()
        while !stopped.current {
            guard (try? listener.wait(for: Int16(POLLIN), until: .now + .milliseconds(500))) == true else { continue }
            guard let (socket, _) = try? listener.accept() else { continue }
            let admitted = connections.withLock { count -> Bool in
                guard count < Self.maxConnections else { return false }
                count += 1
                return true
            }
            guard admitted else {
                try? socket.writeAll(HTTPResponse.refusal(503, "too many connections").serialized(), timeout: .seconds(1))
                socket.close()
                continue
            }
            let thread = Thread { [self] in
                serve(socket)
                socket.close()
                connections.withLock { $0 -= 1 }
            }
            thread.name = "jarvis-web-connection"
            thread.start()
        }
        listener.close()
        for page in pages.withLock({ pages in Array(pages.values) }) { page.work.sync { page.close() } }
    }

    /// Stops serving; ``run()`` returns within half a second.
    public func stop() { stopped.withLock { $0 = true } }

    /// How many pages are open.
    public var openPages: Int { pages.withLock { $0.count } }

    private func serve(_ socket: Socket) {
        var buffer: [UInt8] = []
        let deadline = ContinuousClock.now + Self.requestTimeout
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            switch HTTPRequest.parse(buffer) {
            case .request(let request, _):
                let response = respond(request, socket: socket)
                if let response { try? socket.writeAll(response.serialized(), timeout: .seconds(10)) }
                return
            case .refused(let status, let reason):
                try? socket.writeAll(HTTPResponse.refusal(status, reason).serialized(), timeout: .seconds(2))
                return
            case .incomplete:
                guard (try? socket.wait(for: Int16(POLLIN), until: deadline)) == true else { return }
                let count = chunk.withUnsafeMutableBytes { raw in (try? socket.read(into: raw)) ?? 0 }
                guard count > 0 else { return }
                buffer += chunk[0..<count]
            }
        }
    }

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
