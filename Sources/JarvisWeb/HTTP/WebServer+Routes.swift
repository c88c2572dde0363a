import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport

extension WebServer {
    /// Answers one request; nil when the answer was streamed (the live stream).
    func respond(_ request: HTTPRequest, socket: Socket) -> HTTPResponse? {
        switch guardian.check(request) {
        case .refuse(let status, let reason):
            return .refusal(status, reason)
        case .exchange:
            launchFile.withLock { file in
                file?.remove()
                file = nil
            }
            return .exchange(cookie: guardian.cookie, next: guardian.root)
        case .allow:
            break
        }
        let parts = request.path.dropFirst(guardian.root.count).split(separator: "/", omittingEmptySubsequences: true)
            .map(String.init)
        if parts.first != "api" {
            guard request.method == "GET" || request.method == "HEAD" else { return .refusal(405, "use GET") }
            let name = parts.isEmpty ? "index.html" : parts.joined(separator: "/")
            guard let asset = WebAssets.file(named: name) else { return .refusal(404, "no such file") }
            return .content(asset.bytes, type: asset.type)
        }
        // /api/pages, /api/pages/ID/{intent,rows,events}
        guard parts.count >= 2, parts[1] == "pages" else { return .refusal(404, "no such route") }
        if parts.count == 2 {
            guard request.method == "POST" else { return .refusal(405, "use POST") }
            return openPage()
        }
        guard parts.count == 4, let page = pages.withLock({ $0[parts[2]] }) else {
            return .json(WebJSON.object([("error", "this page was closed; reload it")]), status: 404)
        }
        page.lastSeen.withLock { $0 = .now }
        switch (request.method, parts[3]) {
        case ("POST", "intent"):
            let body: JSONValue
            do {
                body = try JSONParser.parse(request.body, maxDepth: 16)
            } catch {
                return .json(WebJSON.object([("error", "the intent is not JSON")]), status: 400)
            }
            return .json(page.held { page.handle(body) })
        case ("GET", "rows"):
            let from = Int(request.query["from"] ?? "0") ?? 0
            let count = Int(request.query["count"] ?? "100") ?? 100
            return .json(page.held { page.rowsWindow(from: from, count: count) })
        case ("GET", "view"):
            return .json(page.held { page.view() })
        case ("GET", "events"):
            stream(page, to: socket)
            return nil
        default:
            return .refusal(405, "no such route")
        }
    }

    private func openPage() -> HTTPResponse {
        let page = WebPage(id: WebGuard.randomToken().prefix(24).description, options: options)
        pages.withLock { $0[page.id] = page }
        let view = page.held { () -> JSONValue in
            page.connect(nil)
            return page.view()
        }
        return .json(WebJSON.object([("page", .string(page.id)), ("view", view)]))
    }

    /// The page's live stream: a `view` event whenever the model changed (coalesced), at the
    /// end of a change mark, and a comment every 15 seconds; it ends when the browser goes
    /// away or a newer stream for the page starts.
    private func stream(_ page: WebPage, to socket: Socket) {
        let generation = page.streamGeneration.withLock { value -> Int in
            value += 1
            return value
        }
        do {
            try socket.writeAll(HTTPResponse.eventStreamHead(), timeout: .seconds(5))
        } catch {
            return
        }
        var lastKeepAlive = ContinuousClock.now
        var sentVersion = -1
        // The end of a change mark the stream last waited for. Asked again once it passed, the
        // model names only marks still to end, so the stream keeps the one it waited for.
        var markEnd: ContinuousClock.Instant?
        while page.streamGeneration.current == generation {
            page.lastSeen.withLock { $0 = .now }
            let payload = page.held { () -> String? in
                page.tick()
                let dirty = page.changed.current || sentVersion < 0
                guard dirty || (markEnd.map { $0 <= .now } ?? false) else { return nil }
                markEnd = nil
                let view = page.view()
                sentVersion = view["version"]?.int64Value.map(Int.init) ?? 0
                return JSONWriter.string(view)
            }
            do {
                if let payload {
                    try socket.writeAll(HTTPResponse.event("view", payload), timeout: .seconds(10))
                } else if ContinuousClock.now - lastKeepAlive > .seconds(15) {
                    try socket.writeAll(Array(": keep-alive\n\n".utf8), timeout: .seconds(10))
                    lastKeepAlive = .now
                }
            } catch {
                return
            }
            // Wait for a change, a change mark's end, or a second (to notice a closed browser).
            if let next = page.work.sync(execute: { page.nextDeadline() }) { markEnd = min(markEnd ?? next, next) }
            var wait: Duration = .seconds(1)
            if let markEnd { wait = min(wait, max(.milliseconds(5), markEnd - .now)) }
            _ = page.wake.wait(timeout: .now() + .nanoseconds(Int(clamping: wait.wholeNanoseconds(rounded: .up))))
            if browserLeft(socket) { return }
        }
    }

    /// Whether the browser closed its end of a stream (it never sends after the request).
    private func browserLeft(_ socket: Socket) -> Bool {
        guard (try? socket.wait(for: Int16(POLLIN), until: .now)) == true else { return false }
        var byte = [UInt8](repeating: 0, count: 64)
        let count = byte.withUnsafeMutableBytes { raw in (try? socket.read(into: raw)) ?? 0 }
        return count == 0
    }
}
