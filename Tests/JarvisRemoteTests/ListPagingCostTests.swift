import Foundation
import JarvisCore
import JarvisScanners
import Testing

@testable import JarvisRemote

/// Issue 18 item 8: a page of `list` costs what it returns, not a walk of the listing up to
/// its cursor (which made a whole listing in pages quadratic).
@Suite struct ListPagingCostTests {
    @Test func everyPageLooksAtAboutAsManyEntriesAsItReturns() throws {
        let hub = JarvisHub()
        var big: [String: PreferenceValue] = [:]
        for index in 0..<20_000 { big[String(format: "key_%05d", index)] = .integer(Int64(index)) }
        hub.register(MemoryScanner(id: "a", contents: ["big": big, "small": ["one": 1, "two": 2]]))
        hub.register(MemoryScanner(id: "b", contents: ["other": ["x": 1, "y": 2, "z": 3]]))
        let service = AgentService(hub: hub, identity: AgentIdentity(name: "t"), maxLineLength: 1 << 20)

        var cursor: String?
        var seen: [PreferenceAddress] = []
        var pages = 0
        repeat {
            var pager = try service.pager(
                try hub.listStream(ListQuery()), params: Wire.ListParams(limit: 500, cursor: cursor))
            var count = 0
            while let item = pager.next() {
                seen.append(item.address)
                count += 1
            }
            let end = pager.finish()
            // The page's items, plus the one that tells more remain.
            #expect(pager.examined <= count + 1, "page \(pages) looked at \(pager.examined) entries for \(count) items")
            cursor = end.nextCursor?.text
            pages += 1
        } while cursor != nil && pages < 100
        // Every item once, in order, across scanners and containers.
        #expect(seen.count == 20_005)
        #expect(Set(seen).count == seen.count)
        let whole = try hub.list().items.map(\.address)
        #expect(seen == whole)
    }
}
