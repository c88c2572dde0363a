import Foundation
import JarvisCore

/// `list` with `limit` and `cursor`: large stores are read page by page, so no answer grows
/// with the number of keys.
extension AgentService {
    /// The most items one `list` page may ask for.
    package static let maxPageSize = Wire.maxPageSize

    /// Cuts one page out of a full listing. Without `limit`, everything (the 1.0 behaviour).
    func page(_ result: ListResult, params: Wire.ListParams) throws -> JSONValue {
        let limit = params.limit
        let cursor = try params.cursor.map { text throws(RPCError) in try ListCursor(text) }
        var result = result
        let (items, deep) = Self.servable(result.items)
        result.items = items
        let problems = result.problems.map(Wire.Container.init) + deep
        guard limit != nil || cursor != nil else {
            return Wire.ListPage(
                items: result.items, problems: problems, hiddenSystemContainers: result.hiddenSystemContainers
            ).json
        }
        let order = Dictionary(
            hub.scanners().enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var start = 0
        if let cursor {
            guard let rank = order[cursor.scanner] else {
                throw RPCError.invalidParams(
                    "the cursor names scanner '\(cursor.scanner)', which is gone; list again without a cursor")
            }
            let after = (rank, cursor.container, cursor.key)
            start =
                result.items.firstIndex { item in
                    (order[item.address.scanner] ?? Int.max, item.address.container, item.address.key) > after
                } ?? result.items.count
        }
        let end = min(result.items.count, start + (limit ?? result.items.count))
        let slice = result.items[start..<end]
        // Problems belong to the listing as a whole: they come with the first page only.
        var page = Wire.ListPage(
            items: Array(slice), problems: cursor == nil ? problems : [],
            hiddenSystemContainers: cursor == nil ? result.hiddenSystemContainers : 0)
        if end < result.items.count, let last = slice.last {
            page.nextCursor = ListCursor(last.address).text
        }
        return page.json
    }
}

/// Where a listing stopped: the address of the last item sent, opaque to clients.
///
/// It names a position, not an index, so a page after keys were added or removed still
/// starts right after the last item the client saw.
package struct ListCursor: Sendable, Hashable {
    package var scanner: String
    package var container: String
    package var key: String

    package init(_ address: PreferenceAddress) {
        scanner = address.scanner
        container = address.container
        key = address.key
    }

    /// Reads a cursor this agent made.
    package init(_ text: String) throws(RPCError) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let json = try? JSONParser.parse(data),
            let parts = json.arrayValue, parts.count == 3,
            let scanner = parts[0].stringValue, let container = parts[1].stringValue, let key = parts[2].stringValue
        else {
            throw .invalidParams("param 'cursor' of list is not a cursor this agent made; list again without it")
        }
        self.scanner = scanner
        self.container = container
        self.key = key
    }

    /// base64url of `["scanner","container","key"]`.
    package var text: String {
        let json = JSONWriter.bytes(.array([.string(scanner), .string(container), .string(key)]))
        return Data(json).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
