import JarvisCore

/// One HTTP/1.1 response with the headers every answer of the page's server carries.
///
/// Every response forbids caching (`no-store`: a secret once revealed lives in no cache),
/// framing (`frame-ancestors 'none'`) and type sniffing, and carries the page's strict
/// Content-Security-Policy: scripts and styles from this server only, no inline script, no
/// `eval`, no connection anywhere else.
struct HTTPResponse: Sendable {
    /// The status code.
    var status: Int
    /// Extra headers, in order.
    var headers: [(String, String)] = []
    /// The body.
    var body: [UInt8] = []

    /// The policy: nothing but this server's own scripts, styles and connections.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The headers every response carries.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// A body of a given type.
    static func content(_ body: [UInt8], type: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", type)], body: body)
    }

    /// A JSON body.
    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        content(Array(JSONWriter.string(value).utf8), type: "application/json; charset=utf-8", status: status)
    }

    /// A page's request refused, as JSON the page reads (``WebFailure``).
    static func failure(_ status: Int, _ reason: String) -> HTTPResponse {
        json(WebEncoder.encode(WebFailure(error: reason)), status: status)
    }

    /// A plain-text refusal a person can read.
    static func refusal(_ status: Int, _ reason: String) -> HTTPResponse {
        content(Array((reason + "\n").utf8), type: "text/plain; charset=utf-8", status: status)
    }

    /// The answer to the one-time secret: the cookie, and a page that takes the browser to
    /// `next` (the secret leaves the address bar).
    ///
    /// A page that navigates, not a `303`: the browser often reaches the secret from the file
    /// `jarvis web` opened (a `file://` page, so another site), and a `SameSite=Strict` cookie
    /// set along a redirect that started on another site is not sent with the redirected
    /// request; the refresh starts on this server's own page, so it is. Its empty icon keeps
    /// the browser from asking for `/favicon.ico`, which lies outside the page's path.
    static func exchange(cookie: String, next: String) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Set-Cookie", cookie), ("Content-Type", "text/html; charset=utf-8")],
            body: Array(RefreshPage.html(to: next).utf8))
    }

    /// The bytes on the wire: status line, headers (with the security headers and
    /// `Connection: close`), blank line, body.
    ///
    /// - Parameter headOnly: the answer to a `HEAD` request: the same head, no body.
    func serialized(headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in Self.securityHeaders + headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + (headOnly ? [] : body)
    }

    /// The head of a server-sent event stream (no length: it stays open).
    static func eventStreamHead() -> [UInt8] {
        var head = "HTTP/1.1 200 OK\r\n"
        for (name, value) in securityHeaders { head += "\(name): \(value)\r\n" }
        head += "Content-Type: text/event-stream; charset=utf-8\r\nConnection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// One server-sent event: a name and one line of data (JSON has no raw newline).
    static func event(_ name: String, _ data: String) -> [UInt8] {
        Array("event: \(name)\ndata: \(data.replacingOccurrences(of: "\n", with: "\\n"))\n\n".utf8)
    }

    /// The `closed` event naming `pages` (``WebClosedEvent``).
    static func closedEvent(_ pages: [String]) -> [UInt8] {
        event("closed", JSONWriter.string(WebEncoder.encode(WebClosedEvent(pages: pages))))
    }

    /// A live stream asked for pages none of which is open: it says so (``closedEvent(_:)``)
    /// and ends, and the browser's `EventSource` hears why instead of a bare failure.
    static func closed(_ pages: [String]) -> HTTPResponse {
        content(closedEvent(pages), type: "text/event-stream; charset=utf-8")
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 303: "See Other"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
