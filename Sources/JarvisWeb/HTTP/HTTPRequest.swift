import Foundation

/// One HTTP/1.1 request as the page's server reads it: method, path, query, headers and body.
///
/// Pure: ``parse(_:limits:)`` reads bytes and imports no sockets, so it is tested with byte
/// strings. Header names are kept lower-cased.
struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, …
    var method: String
    /// The path without its query, percent-decoded.
    var path: String
    /// The query's parameters, percent-decoded (the last of a repeated name wins).
    var query: [String: String]
    /// Headers by lower-cased name (the last of a repeated name wins; those the guard or the
    /// framing reads are refused when repeated).
    var headers: [String: String]
    /// The body (empty without `Content-Length`).
    var body: [UInt8]

    /// The most a request may be: its head, its `Cookie` header and its body.
    struct Limits: Sendable, Hashable {
        /// The request line and headers but `Cookie`, in bytes.
        var head = 16 * 1024
        /// The `Cookie` header, in bytes: a budget of its own, as large as a browser sends
        /// (about 180 cookies of 4 KiB for one host), because any program on another port of
        /// 127.0.0.1 can set cookies that the browser then sends here too.
        var cookies = 768 * 1024
        /// The body, in bytes.
        var body = 1024 * 1024

        /// The whole head, `Cookie` included.
        var wholeHead: Int { head + cookies }
    }

    /// What reading a request came to.
    enum Outcome: Sendable, Hashable {
        /// More bytes are needed.
        case incomplete
        /// A whole request, and how many bytes of the input it took.
        case request(HTTPRequest, consumed: Int)
        /// The bytes are not a request this server accepts: the status to answer and why.
        case refused(status: Int, reason: String)
    }

    /// Reads one request from the start of `bytes`.
    static func parse(_ bytes: [UInt8], limits: Limits = Limits()) -> Outcome {
        guard let end = headEnd(bytes) else {
            return bytes.count > limits.wholeHead ? .refused(status: 431, reason: "the request head is too large") : .incomplete
        }
        guard end <= limits.wholeHead else { return .refused(status: 431, reason: "the request head is too large") }
        guard let head = String(bytes: bytes[..<end], encoding: .utf8) else {
            return .refused(status: 400, reason: "the request head is not UTF-8")
        }
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return .refused(status: 400, reason: "no request line") }
        let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0", !parts[0].isEmpty else {
            return .refused(status: 400, reason: "a malformed request line")
        }
        var headers: [String: String] = [:]
        var cookieBytes = 0
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                return .refused(status: 400, reason: "a malformed header line")
            }
            let name = line[..<colon].lowercased()
            guard !name.isEmpty, !name.contains(" ") else { return .refused(status: 400, reason: "a malformed header name") }
            // A header the guard or the framing decides by must mean one thing: with two, the
            // server and whatever stands in front of it could each read another (RFC 9112 §3.2,
            // §6.3).
            if Self.singular.contains(name), headers[name] != nil {
                return .refused(status: 400, reason: "a repeated \(name) header")
            }
            headers[name] = line[line.index(after: colon)...].trimmingSpaces()
            if name == "cookie" { cookieBytes = line.utf8.count + 2 }
        }
        if cookieBytes > limits.cookies {
            return .refused(
                status: 431,
                reason:
                    "the browser sent \(cookieBytes / 1024) KiB of cookies for 127.0.0.1, more than jarvis web reads (\(limits.cookies / 1024) KiB): other programs on this computer's other ports set them; clear the cookies of 127.0.0.1 in the browser (site settings, Cookies and site data), then run jarvis web again"
            )
        }
        guard end - cookieBytes <= limits.head else { return .refused(status: 431, reason: "the request head is too large") }
        if headers["transfer-encoding"] != nil {
            return .refused(status: 411, reason: "send a Content-Length, not a chunked body")
        }
        var length = 0
        if let text = headers["content-length"] {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text) else {
                return .refused(status: 400, reason: "a bad Content-Length")
            }
            guard value <= limits.body else { return .refused(status: 413, reason: "the request body is too large") }
            length = value
        }
        let bodyStart = end + 4
        guard bytes.count >= bodyStart + length else { return .incomplete }
        let target = String(parts[1])
        guard target.hasPrefix("/") else { return .refused(status: 400, reason: "the request target is not a path") }
        let pathPart: Substring
        var query: [String: String] = [:]
        if let mark = target.firstIndex(of: "?") {
            pathPart = target[..<mark]
            for pair in target[target.index(after: mark)...].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.decode(halves[0]) else { continue }
                query[name] = halves.count > 1 ? Self.decode(halves[1]) ?? "" : ""
            }
        } else {
            pathPart = target[...]
        }
        guard let path = Self.decode(pathPart) else {
            return .refused(status: 400, reason: "the path has bad percent escapes")
        }
        let request = HTTPRequest(
            method: String(parts[0]), path: path, query: query, headers: headers,
            body: Array(bytes[bodyStart..<(bodyStart + length)]))
        return .request(request, consumed: bodyStart + length)
    }

    /// Headers that may appear once.
    private static let singular: Set<String> = [
        "host", "origin", "content-length", "transfer-encoding", "cookie", "sec-fetch-site",
    ]

    /// Where `\r\n\r\n` begins, or nil.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Percent-decodes a path or query part (`+` is a space in a query); nil for bad escapes or bytes that are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
