import Testing

@testable import JarvisWeb

@Suite struct HTTPRequestTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func readsARequestWithQueryHeadersAndBody() {
        let text = "POST /api/pages/a%20b/intent?from=10&name=x%2Fy+z HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: 4\r\nX-A:  b \r\n\r\nbodyEXTRA"
        guard case .request(let request, let consumed) = HTTPRequest.parse(bytes(text)) else {
            Issue.record("not read"); return
        }
        #expect(request.method == "POST")
        #expect(request.path == "/api/pages/a b/intent")
        #expect(request.query == ["from": "10", "name": "x/y z"])
        #expect(request.headers["host"] == "127.0.0.1:1")
        #expect(request.headers["x-a"] == "b")
        #expect(request.body == bytes("body"))
        #expect(consumed == text.utf8.count - 5)
    }

    @Test func waitsForTheWholeRequest() {
        #expect(HTTPRequest.parse(bytes("GET / HTTP/1.1\r\nHost: x")) == .incomplete)
        #expect(HTTPRequest.parse(bytes("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")) == .incomplete)
    }

    @Test func refusesWhatIsTooLargeOrMalformed() {
        let limits = HTTPRequest.Limits(head: 64, cookies: 32, body: 8)
        let longHead = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100)
        guard case .refused(431, _) = HTTPRequest.parse(bytes(longHead), limits: limits) else {
            Issue.record("a long head was not refused"); return
        }
        guard case .refused(431, _) = HTTPRequest.parse(bytes(longHead + "\r\n\r\n"), limits: HTTPRequest.Limits(head: 64, body: 8))
        else { Issue.record("a long head with no cookie was not refused"); return }
        guard case .refused(413, _) = HTTPRequest.parse(bytes("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n"), limits: limits)
        else { Issue.record("a long body was not refused"); return }
        guard case .refused(411, _) = HTTPRequest.parse(bytes("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))
        else { Issue.record("a chunked body was not refused"); return }
        guard case .refused(400, _) = HTTPRequest.parse(bytes("GARBAGE\r\n\r\n")) else {
            Issue.record("garbage was not refused"); return
        }
        guard case .refused(400, _) = HTTPRequest.parse(bytes("GET /%zz HTTP/1.1\r\n\r\n")) else {
            Issue.record("a bad escape was not refused"); return
        }
    }

    /// Cookies have a budget of their own: any program on another port of 127.0.0.1 can set
    /// them, so a head within its limit is read whatever they weigh up to the browser's own
    /// limits; past those, the refusal says what to clear.
    @Test func cookiesHaveABudgetOfTheirOwn() {
        let cookies = (0..<6).map { "junk\($0)=" + String(repeating: "x", count: 4000) }.joined(separator: "; ")
        let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:1\r\nCookie: \(cookies); jarvis_web=abc\r\n\r\n"
        guard case .request(let read, _) = HTTPRequest.parse(bytes(request)) else {
            Issue.record("24 KB of foreign cookies made the head too large"); return
        }
        #expect(read.headers["cookie"]?.hasSuffix("jarvis_web=abc") == true)
        let tooMany = HTTPRequest.parse(bytes(request), limits: HTTPRequest.Limits(head: 16 * 1024, cookies: 8 * 1024, body: 0))
        guard case .refused(431, let reason) = tooMany else { Issue.record("cookies over their budget were read"); return }
        #expect(reason.contains("clear the cookies of 127.0.0.1"))
    }

    /// Two Hosts, Origins or lengths could be read one way here and another by whatever stands
    /// in front of the server (request smuggling, a guard deciding on the other copy).
    @Test func refusesRepeatedHeadersThatDecideSomething() {
        let repeated = [
            "GET / HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: 127.0.0.1:1\r\nOrigin: http://evil.example\r\nOrigin: http://127.0.0.1:1\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 4\r\ncontent-length: 0\r\n\r\nbody",
            "GET / HTTP/1.1\r\nCookie: a=1\r\nCookie: jarvis_web=x\r\n\r\n",
            "GET / HTTP/1.1\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Site: same-origin\r\n\r\n",
        ]
        for text in repeated {
            guard case .refused(400, let reason) = HTTPRequest.parse(bytes(text)) else {
                Issue.record("not refused: \(text)"); continue
            }
            #expect(reason.contains("repeated"))
        }
        // Headers nothing decides by may repeat.
        guard case .request = HTTPRequest.parse(bytes("GET / HTTP/1.1\r\nAccept: a\r\nAccept: b\r\n\r\n")) else {
            Issue.record("a repeated Accept was refused"); return
        }
    }

    @Test func aContentLengthIsDigitsOnly() {
        for length in ["+4", "-0", " ", "4 4", "0x4", "99999999999999999999999"] {
            let text = "POST / HTTP/1.1\r\nContent-Length: \(length)\r\n\r\nbody"
            guard case .refused(400, _) = HTTPRequest.parse(bytes(text)) else {
                Issue.record("Content-Length '\(length)' was not refused"); continue
            }
        }
    }
}
