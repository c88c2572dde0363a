import Testing

@testable import JarvisTransport

/// ``HTTPFramer`` on byte strings: requests cut at their head and `Content-Length`, limits,
/// and input dripped a byte at a time costing what it holds.
@Suite struct HTTPFramerTests {
    private func feed(_ framer: inout HTTPFramer, _ text: String) {
        Array(text.utf8).withUnsafeBytes { framer.append($0) }
    }

    @Test func cutsAHeadAndTheBodyItsLengthNames() throws {
        var framer = HTTPFramer(maxHead: 1024, maxBody: 1024)
        feed(&framer, "POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhel")
        #expect(try framer.nextRequest() == nil)
        feed(&framer, "loGET /b HTTP/1.1\r\n\r\n")
        #expect(try framer.nextRequest().map { String(decoding: $0, as: UTF8.self) } == "POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try framer.nextRequest().map { String(decoding: $0, as: UTF8.self) } == "GET /b HTTP/1.1\r\n\r\n")
        #expect(try framer.nextRequest() == nil)
        #expect(framer.pendingByteCount == 0)
    }

    @Test func aHeadWithoutAUsableLengthGoesOnAlone() throws {
        for head in [
            "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        ] {
            var framer = HTTPFramer(maxHead: 1024, maxBody: 1024)
            feed(&framer, head + "hello")
            #expect(try framer.nextRequest().map { String(decoding: $0, as: UTF8.self) } == head)
        }
    }

    @Test func aHeadOrBodyOverItsLimitIsRefusedWithItsStatus() {
        var head = HTTPFramer(maxHead: 64, maxBody: 1024)
        feed(&head, "GET / HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 80))
        #expect(throws: HTTPFramer.Overflow.self) { try head.nextRequest() }
        var body = HTTPFramer(maxHead: 1024, maxBody: 10)
        feed(&body, "POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n")
        do {
            _ = try body.nextRequest()
            Issue.record("an 11-byte body passed a 10-byte limit")
        } catch {
            #expect(error.status == 413)
        }
    }

    /// A head that ends across two reads, at every split, is found.
    @Test func theEndOfTheHeadIsFoundWhereverTheInputIsCut() throws {
        let text = Array("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        for cut in 1..<text.count {
            var framer = HTTPFramer(maxHead: 1024, maxBody: 0)
            text[..<cut].withUnsafeBytes { framer.append($0) }
            #expect(try framer.nextRequest() == nil)
            text[cut...].withUnsafeBytes { framer.append($0) }
            #expect(try framer.nextRequest() == text, "cut at \(cut)")
        }
    }

    /// Dripped a byte at a time, a 16 KiB head and a 1 MiB body cost bytes looked at in
    /// proportion to their length: each read looks at what arrived and the three bytes
    /// before it (the old reader parsed everything received on every read, 16 KiB squared).
    @Test func aRequestDrippedAByteAtATimeIsLookedAtOnce() throws {
        var framer = HTTPFramer(maxHead: 32 * 1024, maxBody: 2 << 20)
        let head = Array(("POST / HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 16 * 1024) + "\r\nContent-Length: 1048576\r\n\r\n").utf8)
        for byte in head {
            [byte].withUnsafeBytes { framer.append($0) }
            _ = try framer.nextRequest()
        }
        let body = [UInt8](repeating: 0x62, count: 1 << 20)
        var whole: [UInt8]?
        for start in stride(from: 0, to: body.count, by: 100) {
            body[start..<min(body.count, start + 100)].withUnsafeBytes { framer.append($0) }
            if let request = try framer.nextRequest() { whole = request }
        }
        #expect(whole?.count == head.count + body.count)
        #expect(framer.examined <= 4 * head.count, "bytes looked at: \(framer.examined) for a \(head.count)-byte head")
    }
}
