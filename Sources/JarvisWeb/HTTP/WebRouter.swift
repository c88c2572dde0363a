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
        let headOnly = request.method == "HEAD"
        guard let (route, pageID) = WebRoute.match(parts) else {
            return Self.reply(.refusal(404, "no such route"), on: connection, headOnly: headOnly)
        }
        guard route.methods.contains(request.method) else {
            return Self.reply(.refusal(405, "use \(route.methods[0])"), on: connection, headOnly: headOnly)
        }
        switch route {
        case .page, .file:
            let name = parts.isEmpty ? "index.html" : parts.joined(separator: "/")
            guard let asset = WebAssets.file(named: name) else {
                return Self.reply(.refusal(404, "no such file"), on: connection, headOnly: headOnly)
            }
            return Self.reply(.content(asset.bytes, type: asset.type), on: connection, headOnly: headOnly)
        case .stream:
            // One live stream for every page of a browser (see `WebPage+Stream.swift`).
            let ids = (request.query["pages"] ?? "").split(separator: ",").prefix(Self.maxPagesPerStream).map(
                String.init)
            let (streamed, closed) = pages.withLock { pages in
                (ids.compactMap { pages[$0] }, ids.filter { pages[$0] == nil })
            }
            guard !ids.isEmpty else { return Self.reply(.failure(400, "name the pages: ?pages=ID,ID"), on: connection) }
            // A tab whose page was closed hears it here, and nowhere else before its next request.
            guard !streamed.isEmpty else { return Self.reply(.closed(closed), on: connection) }
            guard admit(connection) else { return }
            connection.send(raw: HTTPResponse.eventStreamHead())
            if !closed.isEmpty { connection.send(raw: HTTPResponse.closedEvent(closed)) }
            for page in streamed { page.attachStream(connection) }
            return
        case .openPage:
            // The page's files need no page and are answered at once; a page's work waits its turn.
            guard admit(connection) else { return }
            return openPage(on: connection)
        case .closePage:
            // Answered whether or not the page was still open: the tab is gone either way.
            if let pageID { closePage(pageID) }
            return Self.reply(.content([], type: "text/plain", status: 204), on: connection)
        case .intent, .rows, .events:
            guard admit(connection) else { return }
            guard let pageID, let page = pages.withLock({ $0[pageID] }) else {
                if route == .events, let pageID { return Self.reply(.closed([pageID]), on: connection) }
                return Self.reply(.failure(404, "this page was closed; reload it"), on: connection)
            }
            page.touch()
            switch route {
            case .intent:
                let body: JSONValue
                do {
                    body = try JSONParser.parse(request.body, maxDepth: 16)
                } catch {
                    return Self.reply(.failure(400, "the intent is not JSON"), on: connection)
                }
                answer(on: page, connection) {
                    let answer = page.handle(body)
                    if case .refused = answer { return (answer.json, 400) }
                    return (answer.json, 200)
                }
            case .rows:
                let from = Int(request.query["from"] ?? "0") ?? 0
                let count = Int(request.query["count"] ?? "100") ?? 100
                answer(on: page, connection) { (WebEncoder.encode(page.rowsWindow(from: from, count: count)), 200) }
            default:
                connection.send(raw: HTTPResponse.eventStreamHead())
                page.attachStream(connection)
            }
        }
    }

    /// Runs `body` on the page's lane and answers with what it returns.
    private func answer(
        on page: WebPage, _ connection: LineConnection, _ body: @escaping @Sendable () -> (JSONValue, status: Int)
    ) {
        page.lane.submit { [self] in
            let (value, status) = body()
            page.touch()
            Self.reply(.json(value, status: status), on: connection)
            scheduleIdleCheck(page)
        }
    }

    private func openPage(on connection: LineConnection) {
        let page = WebPage(id: WebGuard.randomToken().prefix(24).description, options: options, lane: work.lane()) {
            [weak self] page in self?.scheduleIdleCheck(page)
        }
        let evicted = pages.withLock { pages -> WebPage? in
            pages[page.id] = page
            let silent = pages.values.filter { !$0.isStreaming }
            guard silent.count > WebServer.maxSilentPages,
                let oldest = silent.min(by: { $0.lastSeen.current < $1.lastSeen.current })
            else { return nil }
            pages[oldest.id] = nil
            return oldest
        }
        if let evicted { evicted.lane.submit { evicted.close() } }
        answer(on: page, connection) {
            page.connect(nil)
            return (WebEncoder.encode(WebOpened(page: page.id, view: page.view())), 200)
        }
    }

    /// Closes the page `id` names, if it is open (its tab went).
    private func closePage(_ id: String) {
        guard let page = pages.withLock({ $0.removeValue(forKey: id) }) else { return }
        page.lane.submit { page.close() }
    }

    /// A connection ended: it no longer counts as served, and a page's live stream on it ends.
    func closed(_ connection: LineConnection) {
        served.withLock { _ = $0.remove(ObjectIdentifier(connection)) }
        for page in pages.withLock({ Array($0.values) }) { page.streamClosed(connection) }
    }

    /// Closes `page` once nobody held it for ``WebServer/pageIdle``: asked when a request
    /// ended or its stream closed, and decided on its lane, after the work in hand (a page busy
    /// for longer than it may idle is held, not idle). One check waits per page, however many
    /// requests asked: one seen meanwhile waits again for the rest of the time.
    func scheduleIdleCheck(_ page: WebPage, after wait: Duration = WebServer.pageIdle) {
        guard page.idleCheckWaits.withLock({ waits in defer { waits = true }; return !waits }) else { return }
        let milliseconds = Int(clamping: (wait + .milliseconds(50)).wholeMilliseconds(rounded: .up))
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [weak self, weak page] in
            guard let self, let page else { return }
            page.lane.submit { [self] in
                page.idleCheckWaits.withLock { $0 = false }
                // A stream that ends asks again.
                guard !page.isStreaming else { return }
                let silent = ContinuousClock.now - page.lastSeen.current
                guard silent > WebServer.pageIdle else { return scheduleIdleCheck(page, after: WebServer.pageIdle - silent) }
                pages.withLock { pages in if pages[page.id] === page { pages[page.id] = nil } }
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
