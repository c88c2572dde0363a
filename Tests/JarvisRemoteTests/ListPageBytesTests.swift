import Foundation
import JarvisCore
import JarvisScanners
import Testing

@testable import JarvisRemote

/// Issue 47 item 1: one `list` answer stays bounded in bytes, not only in items. A page ends
/// once its items take ``Wire/maxPageBytes`` (the client follows `nextCursor`), and an item
/// whose value alone takes more than ``Wire/maxItemBytes`` is a problem for its container;
/// every other item is served.
@Suite struct ListPageBytesTests {
    let hub = JarvisHub()
    let service: AgentService

    init() {
        var large: [String: PreferenceValue] = [:]
        for index in 0..<40 { large[String(format: "blob_%02d", index)] = .data(Data(count: 1 << 20)) }
        large["huge"] = .data(Data(count: 5 << 20))
        hub.register(MemoryScanner(id: "a", contents: ["large": large, "small": ["one": 1]]))
        service = AgentService(hub: hub, identity: AgentIdentity(name: "t"), maxLineLength: 1 << 20)
    }

    @Test func aPageEndsOnceItsItemsTakeItsBytesAndTheNextGoesOn() throws {
        var cursor: String?
        var seen: [PreferenceAddress] = []
        var pages = 0
        repeat {
            let pager = try service.pager(
                try hub.listStream(ListQuery()), params: Wire.ListParams(limit: 10_000, cursor: cursor))
            let page = try Wire.ListPage(json: service.page(pager))
            let bytes = JSONWriter.bytes(page.json).count
            // The items up to the one that passed the page's bytes, that one included.
            #expect(bytes < Wire.maxPageBytes + Wire.maxItemBytes, "page \(pages) took \(bytes) bytes")
            #expect(page.problems.isEmpty)
            seen += page.items.map(\.address)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 100
        #expect(pages >= 6, "\(pages) pages for 45 MiB of values")
        #expect(seen == (try hub.list().items.map(\.address)))
    }

    @Test func anItemLargerThanOneItemMayIsAProblemAndTheRestIsServed() throws {
        hub.register(MemoryScanner(id: "b", contents: ["vast": ["whole": .data(Data(count: 25 << 20)), "tiny": 1]]))
        for limit in [nil, 10_000] {
            let pager = try service.pager(
                try hub.listStream(ListQuery(scanner: "b")), params: Wire.ListParams(scanner: "b", limit: limit))
            let page = try Wire.ListPage(json: service.page(pager))
            #expect(page.items.map(\.address.key) == ["tiny"])
            let problem = page.problems.first { $0.name == "vast" }?.problem ?? ""
            #expect(problem.contains("'whole' is left out of the listing"), "\(page.problems)")
            #expect(problem.contains("32 MiB"))
        }
    }
}
