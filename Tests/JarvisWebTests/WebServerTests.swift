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
}
