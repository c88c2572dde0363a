import Dispatch
import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport

/// What the page's server knows and decides: the guard, the open pages, the launch file, and
/// the route of each request.
///
/// Called on the transport's loop for each whole request; it answers there only what costs
/// no waiting (a refusal, the exchange, a file of the page) and submits everything a page
/// does to that page's ``WorkLane``. Thread-safe: its state sits in `Locked`s.
final class WebRouter: Sendable {
    let guardian: WebGuard
    let options: WebOptions
    let pages = Locked<[String: WebPage]>([:])
    /// The file the browser was given, until the secret is used.
    let launchFile = Locked<WebLaunchFile?>(nil)
    /// The connections answered or streamed now that carried the session cookie.
    private let served = Locked<Set<ObjectIdentifier>>([])
    /// Where pages run their work: the page's server starts no thread of its own.
    let work = WorkPool(name: "jarvis-web")

    init(guardian: WebGuard, options: WebOptions) {
        self.guardian = guardian
        self.options = options
    }

    /// The most pages one live stream carries (the tabs of one browser).
    static let maxPagesPerStream = 64

    /// Sends `response` (its head alone for a `HEAD` request) and closes the connection once
    /// it is written.
    static func reply(_ response: HTTPResponse, on connection: LineConnection, headOnly: Bool = false) {
        connection.send(raw: response.serialized(headOnly: headOnly))
        connection.close()
    }

    /// Routes one whole request (head and body, as the transport's HTTP framing cut it).
    func receive(_ bytes: [UInt8], on connection: LineConnection) {
        let request: HTTPRequest
        switch HTTPRequest.parse(bytes) {
        case .request(let parsed, _): request = parsed
        case .refused(let status, let reason): return Self.reply(.refusal(status, reason), on: connection)
        case .incomplete: return Self.reply(.refusal(400, "an incomplete request"), on: connection)
        }
        let headOnly = request.method == "HEAD"
        switch guardian.check(request) {
        case .refuse(let status, let reason):
            return Self.reply(.refusal(status, reason), on: connection, headOnly: headOnly)
        case .exchange:
            launchFile.withLock { file in
                file?.remove()
                file = nil
            }
            return Self.reply(.exchange(cookie: guardian.cookie, next: guardian.root), on: connection)
        case .allow:
            break
        }
        route(request, on: connection)
    }

    /// Counts `connection` among those a page's work answers or streams; false (and a 503 sent)
    /// when ``WebServer/maxConnections`` are already.
    private func admit(_ connection: LineConnection) -> Bool {
        let admitted = served.withLock { served -> Bool in
            guard served.count < WebServer.maxConnections else { return false }
            served.insert(ObjectIdentifier(connection))
            return true
        }
        if !admitted { Self.reply(.refusal(503, "too many requests at once"), on: connection) }
        return admitted
    }

    private func route(_ request: HTTPRequest, on connection: LineConnection) {
        let parts = request.path.dropFirst(guardian.root.count).split(separator: "/", omittingEmptySubsequences: true)
            .map(String.init)
        if parts.first != "api" {
            guard request.method == "GET" || request.method == "HEAD" else {
                return Self.reply(.refusal(405, "use GET"), on: connection)
            }
            let name = parts.isEmpty ? "index.html" : parts.joined(separator: "/")
            let headOnly = request.method == "HEAD"
            guard let asset = WebAssets.file(named: name) else {
                return Self.reply(.refusal(404, "no such file"), on: connection, headOnly: headOnly)
            }
            return Self.reply(.content(asset.bytes, type: asset.type), on: connection, headOnly: headOnly)
        }
        // /api/stream?pages=ID,ID…: one live stream for every page of a browser (see
        // `WebPage+Stream.swift`); /api/pages, /api/pages/ID/{intent,rows,view,events}
        if parts.count == 2, parts[1] == "stream" {
            guard request.method == "GET" else { return Self.reply(.refusal(405, "use GET"), on: connection) }
            let ids = (request.query["pages"] ?? "").split(separator: ",").prefix(Self.maxPagesPerStream).map(String.init)
            let streamed = pages.withLock { pages in ids.compactMap { pages[$0] } }
            guard !streamed.isEmpty else {
                return Self.reply(.json(WebJSON.object([("error", "these pages were closed; reload them")]), status: 404), on: connection)
            }
            guard admit(connection) else { return }
            connection.send(raw: HTTPResponse.eventStreamHead())
            for page in streamed { page.attachStream(connection) }
            return
        }
        guard parts.count >= 2, parts[1] == "pages" else { return Self.reply(.refusal(404, "no such route"), on: connection) }
        // The page's files need no page and are answered at once; a page's work waits its turn.
        guard admit(connection) else { return }
        if parts.count == 2 {
            guard request.method == "POST" else { return Self.reply(.refusal(405, "use POST"), on: connection) }
            return openPage(on: connection)
        }
        guard parts.count == 4, let page = pages.withLock({ $0[parts[2]] }) else {
            return Self.reply(.json(WebJSON.object([("error", "this page was closed; reload it")]), status: 404), on: connection)
        }
        page.touch()
        switch (request.method, parts[3]) {
        case ("POST", "intent"):
            let body: JSONValue
            do {
                body = try JSONParser.parse(request.body, maxDepth: 16)
            } catch {
                return Self.reply(.json(WebJSON.object([("error", "the intent is not JSON")]), status: 400), on: connection)
            }
            answer(on: page, connection) { page.handle(body) }
        case ("GET", "rows"):
            let from = Int(request.query["from"] ?? "0") ?? 0
            let count = Int(request.query["count"] ?? "100") ?? 100
            answer(on: page, connection) { page.rowsWindow(from: from, count: count) }
        case ("GET", "view"):
            answer(on: page, connection) { page.view() }
        case ("GET", "events"):
            connection.send(raw: HTTPResponse.eventStreamHead())
            page.attachStream(connection)
        default:
            Self.reply(.refusal(405, "no such route"), on: connection)
        }
    }

    /// Runs `body` on the page's lane and answers with what it returns.
    private func answer(on page: WebPage, _ connection: LineConnection, _ body: @escaping @Sendable () -> JSONValue) {
        page.lane.submit { [self] in
            let value = body()
            page.touch()
            Self.reply(.json(value), on: connection)
            scheduleIdleCheck(page)
        }
    }

    private func openPage(on connection: LineConnection) {
        let page = WebPage(id: WebGuard.randomToken().prefix(24).description, options: options, lane: work.lane()) {
            [weak self] page in self?.scheduleIdleCheck(page)
        }
        pages.withLock { $0[page.id] = page }
        answer(on: page, connection) {
            page.connect(nil)
            return WebJSON.object([("page", .string(page.id)), ("view", page.view())])
        }
    }

    /// A connection ended: it no longer counts as served, and a page's live stream on it ends.
    func closed(_ connection: LineConnection) {
        served.withLock { _ = $0.remove(ObjectIdentifier(connection)) }
        for page in pages.withLock({ Array($0.values) }) { page.streamClosed(connection) }
    }

    /// Closes `page` once nobody held it for ``WebServer/pageIdle``: asked when its last
    /// request ended or its stream closed, and decided on its lane, after the work in hand (a
    /// page busy for longer than it may idle is held, not idle).
    func scheduleIdleCheck(_ page: WebPage) {
        let wait = WebServer.pageIdle + .milliseconds(50)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: wait.wholeMilliseconds(rounded: .up)))) {
            [weak self, weak page] in
            guard let self, let page else { return }
            page.lane.submit { [self] in
                guard !page.isStreaming, ContinuousClock.now - page.lastSeen.current > WebServer.pageIdle else {
                    if !page.isStreaming { scheduleIdleCheck(page) }
                    return
                }
                pages.withLock { $0[page.id] = nil }
                page.close()
            }
        }
    }

    /// Closes every page (the server stops).
    func closeAll() {
        let all = pages.withLock { pages -> [WebPage] in
            defer { pages = [:] }
            return Array(pages.values)
        }
        launchFile.withLock { file in
            file?.remove()
            file = nil
        }
        for page in all { page.lane.submit { page.close() } }
    }
}
