import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisWeb

/// The page's routes and intents without a browser: a real `jarvis web` server and a real
/// agent in this process, spoken to over TCP with the requests the page sends.
@Suite(.serialized) struct WebServerTests {
    static let contents: [String: [String: PreferenceValue]] = [
        "app": ["name": .string("Ada"), "count": .integer(1), "theme": .string("light")]
    ]

    static func target(_ key: String) -> JSONValue { ["s": "memory", "c": "app", "k": .string(key), "p": ""] }

    @Test func aPageShowsItsAgentAndKeysAndEveryIntentActsThroughTheModel() throws {
        let web = try WebFixture(contents: Self.contents)
        let (page, view) = try web.openPage()
        #expect(view["agent"]?["name"] == "web-fixture")
        #expect(view["scanners"]?.arrayValue?.first?["count"] == 3)
        // The page waits for the first rows the way it draws them.
        var rows = try web.rows(page)
        #expect(rows["total"] == 3)
        #expect(rows["rows"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == ["count", "name", "theme"])

        var answer = try web.intent(page, ["intent": "filter", "text": "na"])
        #expect(answer.status == 200)
        #expect(answer.json["table"]?["total"] == 1)
        rows = try web.rows(page)
        #expect(rows["rows"]?.arrayValue?.first?["key"] == "name")

        answer = try web.intent(page, ["intent": "open", "target": Self.target("name")])
        #expect(answer.json["detail"]?["title"] == "name")
        #expect(answer.json["detail"]?["actions"]?["edit"] == true)
        answer = try web.intent(page, ["intent": "edit", "target": Self.target("name"), "zone": "UTC"])
        #expect(answer.json["draft"]?["editor"] == "text")
        #expect(answer.json["draft"]?["text"] == "Ada")
        answer = try web.intent(page, ["intent": "save", "text": "Grace"])
        #expect(answer.json["draft"] == .null)
        #expect(answer.json["message"]?["offer"] == "undo")
        #expect(web.memory.contents["app"]?["name"] == .string("Grace"))

        answer = try web.intent(page, ["intent": "undo"])
        #expect(answer.json["message"]?["offer"] == "redo")
        #expect(web.memory.contents["app"]?["name"] == .string("Ada"))

        // The members of a value come as a window, not as a view.
        answer = try web.intent(page, ["intent": "members", "target": Self.target("name")])
        #expect(answer.json["members"] == [])
        #expect(answer.json["version"] == nil)
    }

    @Test func whatIsNoIntentOrNoRouteIsRefusedAndChangesNothing() throws {
        let web = try WebFixture(contents: Self.contents)
        let (page, _) = try web.openPage()
        var answer = try web.intent(page, ["intent": "view"])
        #expect(answer.status == 400)
        #expect(answer.json["error"]?.stringValue?.contains("unknown intent 'view'") == true)
        answer = try web.request("POST", "api/pages/\(page)/intent", body: "{not json")
        #expect(answer.status == 400)
        #expect(answer.json["error"] == "the intent is not JSON")
        // A view is read from an intent's answer or the stream, never by a GET that takes
        // the stream's news.
        #expect(try web.request("GET", "api/pages/\(page)/view").status == 404)
        #expect(try web.request("POST", "api/pages/\(page)/rows", body: "{}").status == 405)
        #expect(try web.request("GET", "api/pages").status == 405)
        answer = try web.request("GET", "api/pages/nosuchpage/rows")
        #expect(answer.status == 404)
        #expect(answer.json["error"] == "this page was closed; reload it")
        // HEAD: the head of the GET, no body.
        let head = try web.request("HEAD", "")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(Int(head.headers["content-length"] ?? "") ?? 0 > 0)
        #expect(try web.request("GET", "").body.count == Int(head.headers["content-length"] ?? ""))
        // Without the cookie, nothing.
        #expect(try web.request("POST", "api/pages", body: "{}", cookie: false).status == 403)
    }

    /// The JSON tab of a value holding NaN and infinities is JSON a parser takes, with a note
    /// naming how they are written, and Copy value copies JSON too (the wire's form).
    @Test func theJSONTabOfAValueHoldingNaNIsJSON() throws {
        let stats: PreferenceValue = .dictionary(["ratio": .real(.nan), "limits": .array([.real(.infinity), .real(2.5)])])
        let web = try WebFixture(contents: ["app": ["stats": stats]])
        let (page, _) = try web.openPage()
        let answer = try web.intent(page, ["intent": "open", "target": Self.target("stats")])
        let detail = try #require(answer.json["detail"])
        let json = try #require(detail["json"]?.stringValue)
        let parsed = try JSONParser.parse(Array(json.utf8))
        #expect(parsed["ratio"] == "NaN", "\(json)")
        #expect(parsed["limits"] == ["Infinity", 2.5], "\(json)")
        #expect(detail["jsonNote"]?.stringValue?.contains(#""NaN", "Infinity" and "-Infinity""#) == true)
        let copied = try #require(detail["copy"]?["value"]?.stringValue)
        #expect(try PreferenceValue(json: JSONParser.parse(Array(copied.utf8))) == stats, "\(copied)")
    }

    /// A bidi override pasted into the page's filter finds the key that holds it (the row shows
    /// it as an escape), and so does the escape typed as the row shows it.
    @Test func theFilterFindsAKeyByItsHiddenCharacterTypedRaw() throws {
        let key = "invoice\u{202E}gnp.exe"
        let web = try WebFixture(contents: ["app": [key: .string("x"), "plain": .string("y")]])
        let (page, _) = try web.openPage()
        for typed in ["\u{202E}gnp", #"\u{202E}gnp"#] {
            let answer = try web.intent(page, ["intent": "filter", "text": .string(typed)])
            #expect(answer.json["table"]?["total"] == 1, "\(typed.unicodeScalars.map(\.value))")
            let rows = try web.rows(page)["rows"]?.arrayValue ?? []
            #expect(rows.compactMap { $0["key"]?.stringValue } == [#"invoice\u{202E}gnp.exe"#])
            #expect(rows.first?["target"]?["k"]?.stringValue == key)
        }
    }

    static func many(_ count: Int) -> [String: [String: PreferenceValue]] {
        var keys: [String: PreferenceValue] = [:]
        for index in 0..<count { keys[String(format: "key.%05d", index)] = .integer(Int64(index)) }
        return ["app": keys]
    }

    /// A value stored by another client reaches the open page's stream as that one row,
    /// patched at its index, and the table keeps its version (the page keeps every other row).
    @Test func aChangeStoredElsewhereReachesTheStreamAsItsOneRow() throws {
        let web = try WebFixture(contents: Self.many(2000))
        let (page, _) = try web.openPage()
        #expect(try web.rows(page)["total"] == 2000)
        let stream = WebStream(try web.send("GET", "api/stream?pages=\(page)"))
        let first = try #require(try stream.nextView(until: .now + .seconds(20)))
        let table = try #require(first["view"]?["table"])
        web.memory.update("app", "key.00005", to: .string("changed elsewhere"))
        var patched: JSONValue?
        let deadline = ContinuousClock.now + .seconds(20)
        while patched == nil, let event = try stream.nextView(until: deadline) {
            guard let patches = event["view"]?["table"]?["patches"]?.arrayValue, !patches.isEmpty else { continue }
            patched = event["view"]?["table"]
        }
        let found = try #require(patched, "no view carried the changed row")
        #expect(found["version"] == table["version"])
        #expect(found["from"] == table["revision"])
        #expect(found["total"] == 2000)
        let patches = found["patches"]?.arrayValue ?? []
        #expect(patches.count == 1)
        #expect(patches.first?["index"] == 5)
        #expect(patches.first?["row"]?["key"] == "key.00005")
        #expect(patches.first?["row"]?["preview"] == "changed elsewhere")
        // A window asked now holds it, at the same revision.
        let rows = try web.rows(page, from: 0, count: 10)
        #expect(rows["revision"] == found["revision"])
        #expect(rows["rows"]?.arrayValue?[5]["preview"] == "changed elsewhere")
    }

    /// A container's size is counted again by the keys that changed alone (not every key):
    /// one value growing past the limit names the container large, and shrinking clears it;
    /// a row in the table's second chunk is patched at its index.
    @Test func aValueGrowingPastTheLimitNamesItsContainerLargeAndShrinkingClearsIt() throws {
        let web = try WebFixture(contents: Self.many(2000))
        let (page, _) = try web.openPage()
        let stream = WebStream(try web.send("GET", "api/stream?pages=\(page)"))
        _ = try #require(try stream.nextView(until: .now + .seconds(20)))
        func warning(until deadline: ContinuousClock.Instant, _ wanted: (JSONValue?) -> Bool) throws -> Bool {
            while let event = try stream.nextView(until: deadline) {
                let containers = event["view"]?["scanners"]?.arrayValue?.first?["containers"]?.arrayValue
                if wanted(containers?.first { $0["name"] == "app" }?["sizeWarning"]) { return true }
            }
            return false
        }
        web.memory.update("app", "key.01500", to: .string(String(repeating: "x", count: 600 * 1024)))
        #expect(try warning(until: .now + .seconds(30)) { $0?.stringValue?.hasPrefix("large") == true })
        #expect(try web.rows(page, from: 1500, count: 1)["rows"]?.arrayValue?.first?["key"] == "key.01500")
        web.memory.update("app", "key.01500", to: .integer(1500))
        #expect(try warning(until: .now + .seconds(30)) { $0 == nil || $0 == .null })
    }

    /// Pages on one agent share its listing (one session, one table of rows); it closes with
    /// the last of them, and the next page loads it again.
    /// A silent page is kept a day (a tab the browser froze wakes with its draft), so a tab
    /// that goes says so and its page closes at once; past a bound of silent pages, opening
    /// one more closes the one silent longest.
    @Test func aTabThatGoesClosesItsPageAndSilentPagesAreKeptUpToABound() throws {
        let web = try WebFixture(contents: Self.contents)
        let gone = try web.openPage().id
        #expect(try web.intent(gone, ["intent": "filter", "text": "na"]).status == 200)
        #expect(try web.request("POST", "api/pages/\(gone)/close").status == 204)
        var answer = try web.intent(gone, ["intent": "filter", "text": ""])
        #expect(answer.status == 404)
        #expect(answer.json["error"] == "this page was closed; reload it")
        // Asked again, or of a page that never was: the tab is gone either way.
        #expect(try web.request("POST", "api/pages/\(gone)/close").status == 204)
        #expect(try web.request("GET", "api/pages/\(gone)/close").status == 405)

        let oldest = try web.openPage().id
        var kept: [String] = []
        for _ in 1..<WebServer.maxSilentPages { kept.append(try web.openPage().id) }
        #expect(try web.intent(oldest, ["intent": "filter", "text": "na"]).status == 200)
        // `oldest` was seen last now: the next one silent longest goes.
        _ = try web.openPage()
        answer = try web.intent(kept[0], ["intent": "filter", "text": "na"])
        #expect(answer.status == 404)
        #expect(try web.intent(oldest, ["intent": "filter", "text": ""]).status == 200)
        #expect(try web.intent(kept[1], ["intent": "filter", "text": ""]).status == 200)
        #expect(web.server.router.pages.current.count == WebServer.maxSilentPages)
    }

    /// A tab whose page the server closed hears it on the live stream: the shared stream
    /// names the pages it was asked for that are not open in a `closed` event, first, and goes
    /// on for the others (asked for closed pages alone, it says so and ends); a page's own
    /// stream says its page is closed and ends.
    @Test func aLiveStreamNamesThePagesThatAreNotOpen() throws {
        let web = try WebFixture(contents: Self.contents)
        let open = try web.openPage().id
        let gone = try web.openPage().id
        #expect(try web.request("POST", "api/pages/\(gone)/close").status == 204)
        func closed(_ event: JSONValue?) -> [String]? { event?["pages"]?.arrayValue?.compactMap(\.stringValue) }

        let shared = WebStream(try web.send("GET", "api/stream?pages=\(open),\(gone),never"))
        #expect(closed(try shared.next("closed", until: .now + .seconds(20))) == [gone, "never"])
        #expect(try shared.nextView(until: .now + .seconds(20))?["page"]?.stringValue == open)

        for path in ["api/stream?pages=\(gone)", "api/pages/\(gone)/events"] {
            let answer = try web.request("GET", path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.headers["content-type"]?.hasPrefix("text/event-stream") == true, "\(path)")
            let ended = WebStream(try web.send("GET", path))
            #expect(closed(try ended.next("closed", until: .now + .seconds(20))) == [gone], "\(path)")
            let deadline = ContinuousClock.now + .seconds(20)
            #expect(try ended.nextView(until: deadline) == nil, "\(path)")
            #expect(ContinuousClock.now < deadline, "\(path) did not end")
        }
    }

    @Test func pagesOnOneAgentShareOneListingThatClosesWithTheLast() throws {
        let web = try WebFixture(contents: Self.many(100))
        let one = try web.openPage().id
        let two = try web.openPage().id
        let pages = web.server.router.pages.withLock { pages in [pages[one], pages[two]] }
        let listing = try #require(pages[0]?.listing)
        #expect(pages[1]?.listing === listing)
        #expect(listing.users.current == 2)
        // Both draw from the same rows.
        #expect(try web.rows(one)["rows"] == web.rows(two)["rows"])
        // A save on one page shows on the other, through the one session.
        _ = try web.intent(one, ["intent": "edit", "target": ["s": "memory", "c": "app", "k": "key.00001", "p": ""]])
        _ = try web.intent(one, ["intent": "save", "text": "41"])
        #expect(try web.rows(two, from: 1, count: 1)["rows"]?.arrayValue?.first?["preview"] == "41")
        for page in pages { page?.lane.submit { page?.close() } }
        #expect(eventually(timeout: .seconds(10)) { listing.users.current == 0 })
        let three = try web.openPage().id
        let again = web.server.router.pages.withLock { $0[three]?.listing }
        #expect(again != nil && again !== listing)
    }
}
