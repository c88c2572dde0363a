import Foundation
import Testing

@testable import JarvisWeb

/// Every route the router serves is documented in docs/WEB.md, and every route documented
/// there is served: the table of `WebRoute` against the document's table.
@Suite struct WebRouteTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/WEB.md")

    /// `METHOD /path` of each row of the routes table (its first cell, one or more routes).
    static func documented() throws -> Set<String> {
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let start = text.range(of: "## Routes") else { return [] }
        var routes: Set<String> = []
        for line in text[start.upperBound...].split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for route in cell.split(separator: "`") where route.contains(" /") { routes.insert(String(route)) }
        }
        return routes
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteIsServed() throws {
        let served = Set(WebRoute.allCases.flatMap { route in route.methods.map { "\($0) \(route.pattern)" } })
        let documented = try Self.documented()
        #expect(
            served.subtracting(documented).isEmpty,
            "routes missing from docs/WEB.md: \(served.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(served).isEmpty,
            "docs/WEB.md lists routes nobody serves: \(documented.subtracting(served).sorted())")
    }

    @Test func pathsFindTheirRouteAndNothingElseIsARoute() {
        #expect(WebRoute.match([])?.route == .page)
        #expect(WebRoute.match(["app.js"])?.route == .file)
        #expect(WebRoute.match(["api", "stream"])?.route == .stream)
        #expect(WebRoute.match(["api", "pages"])?.route == .openPage)
        #expect(WebRoute.match(["api", "pages", "P1", "intent"]).map { "\($0.route) \($0.page ?? "")" } == "intent P1")
        #expect(WebRoute.match(["api", "pages", "P1", "rows"])?.route == .rows)
        #expect(WebRoute.match(["api", "pages", "P1", "events"])?.route == .events)
        #expect(WebRoute.match(["api", "pages", "P1", "close"]).map { "\($0.route) \($0.page ?? "")" } == "closePage P1")
        // Reading a view changed the page (it took the stream's news): it is no route.
        #expect(WebRoute.match(["api", "pages", "P1", "view"]) == nil)
        #expect(WebRoute.match(["api", "pages", "P1"]) == nil)
        #expect(WebRoute.match(["api"]) == nil)
        #expect(WebRoute.match(["api", "other"]) == nil)
    }
}
