import Foundation
import JarvisCore

/// `list` with `limit` and `cursor`: large stores are read page by page, so no answer grows
/// with the number of keys.
extension AgentService {
    /// The most items one `list` page may ask for.
    package static let maxPageSize = 10_000

    /// Cuts one page out of a full listing. Without `limit`, everything (the 1.0 behaviour).
    func page(_ result: ListResult, params: Params) throws -> JSONValue {
        let limit = try params.optionalInt("limit", in: 1...Self.maxPageSize)
        let cursor = try params.optionalString("cursor").map { text throws(RPCError) in try ListCursor(text) }
        guard limit != nil || cursor != nil else {
            var whole: JSONObject = [
                "items": .array(result.items.map(WireItem.encode)),
                "problems": .array(result.problems.map(WireItem.encode)),
            ]
            if result.hiddenSystemContainers > 0 {
                whole["hiddenSystemContainers"] = .number(JSONNumber(result.hiddenSystemContainers))
            }
            return .object(whole)
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
        var object: JSONObject = [
            "items": .array(slice.map(WireItem.encode)),
            // Problems belong to the listing as a whole: they come with the first page only.
            "problems": .array(cursor == nil ? result.problems.map(WireItem.encode) : []),
        ]
        if cursor == nil, result.hiddenSystemContainers > 0 {
            object["hiddenSystemContainers"] = .number(JSONNumber(result.hiddenSystemContainers))
        }
        if end < result.items.count, let last = slice.last {
            object["nextCursor"] = .string(ListCursor(last.address).text)
        }
        return .object(object)
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
