import Foundation
import JarvisCore

/// `list` with `limit` and `cursor`: large stores are read page by page, so no answer grows
/// with the number of keys.
extension AgentService {
    /// The most items one `list` page may ask for.
    package static let maxPageSize = Wire.maxPageSize

    /// The items of one page of a listing, as `list`'s params ask; without `limit`, all of
    /// them (the 1.0 behaviour).
    func pager(_ stream: ListStream, params: Wire.ListParams) throws -> ListPager {
        var stream = stream
        let limit = params.limit
        let cursor = try params.cursor.map { text throws(RPCError) in try ListCursor(text) }
        var after: ListPager.Position?
        if let cursor {
            let order = Dictionary(
                hub.scanners().enumerated().map { ($0.element.id, $0.offset) },
                uniquingKeysWith: { first, _ in first })
            guard let rank = order[cursor.scanner] else {
                throw RPCError.invalidParams(
                    "the cursor names scanner '\(cursor.scanner)', which is gone; list again without a cursor")
            }
            after = ListPager.Position(order: order, rank: rank, container: cursor.container, key: cursor.key)
            // The stream starts at the cursor: the items before it are never made, so a page
            // costs what it returns rather than a walk of the listing up to it.
            stream.start(
                after: PreferenceAddress(scanner: cursor.scanner, container: cursor.container, key: cursor.key),
                order: order)
        }
        return ListPager(stream: stream, limit: limit, after: after)
    }

    /// A whole page as one JSON value: `{"items","problems","nextCursor"?,"hiddenSystemContainers"?}`.
    /// - Parameter sending: told of the page's items just before they are sent.
    func page(_ pager: ListPager, sending: ([PreferenceItem]) -> Void = { _ in }) -> JSONValue {
        var pager = pager
        var items: [PreferenceItem] = []
        while let item = pager.next() { items.append(item) }
        let end = pager.finish()
        sending(items)
        return Wire.ListPage(
            items: items, problems: end.problems, nextCursor: end.nextCursor?.text,
            hiddenSystemContainers: end.hiddenSystemContainers
        ).json
    }
}

/// Cuts one page out of a listing as it streams: skips the items up to the cursor, stops at
/// the limit or once its items take ``Wire/maxPageBytes``, and then tells whether more remain.
/// An item whose value alone takes more than ``Wire/maxItemBytes`` is left out, with a problem
/// for its container: one answer stays bounded in bytes, whatever the files hold.
struct ListPager: Sendable {
    /// The item a cursor names, with the scanners' order to compare addresses in.
    struct Position: Sendable {
        var order: [String: Int]
        var rank: Int
        var container: String
        var key: String

        func isPassed(by address: PreferenceAddress) -> Bool {
            (order[address.scanner] ?? Int.max, address.container, address.key) > (rank, container, key)
        }
    }

    private var stream: ListStream
    private let limit: Int?
    private var after: Position?
    private let isFirstPage: Bool
    private var sent = 0
    /// What the items sent take as JSON, roughly (see ``Wire/maxPageBytes``).
    private var bytes = 0
    private var last: PreferenceAddress?
    /// The problems this page met, reported with it whatever page it is: items too deep to
    /// serve (see `PreferenceItem.depthProblem`) and scanners passed over because they did not
    /// answer in time.
    private var pageProblems: [Wire.Container] = []

    init(stream: ListStream, limit: Int?, after: Position?) {
        self.stream = stream
        self.limit = limit
        self.after = after
        isFirstPage = after == nil
    }

    /// What an item takes as JSON besides its value and names: its members' names, type,
    /// revision and scanner.
    static let itemCost = 96

    /// Entries the listing looked at for this page (what a page costs; see ``ListStream``).
    var examined: Int { stream.examined }

    /// Whether the page holds what it may: its limit of items, or of bytes.
    private var isFull: Bool {
        guard let limit else { return false }
        return sent >= limit || bytes >= Wire.maxPageBytes
    }

    /// The next item of the page, or nil once it is full or the listing ends.
    mutating func next() -> PreferenceItem? {
        if isFull { return nil }
        while let item = stream.next() {
            if let position = after {
                guard position.isPassed(by: item.address) else { continue }
                after = nil
            }
            if let reason = item.depthProblem {
                pageProblems.append(
                    Wire.Container(
                        scanner: item.address.scanner, name: item.address.container, writable: false, problem: reason))
                continue
            }
            let size = item.value.map { $0.minimumJSONBytes(countingPast: Wire.maxItemBytes) } ?? 0
            guard size <= Wire.maxItemBytes else {
                pageProblems.append(
                    Wire.Container(
                        scanner: item.address.scanner, name: item.address.container, writable: false,
                        problem:
                            "'\(item.address.key)' is left out of the listing: its value takes more than \(Wire.maxItemBytes >> 20) MiB as JSON, more than one listed item may; read one part of it with get and a pointer"
                    ))
                continue
            }
            sent += 1
            bytes += Self.itemCost + size + item.address.container.utf8.count + item.address.key.utf8.count
            last = item.address
            return item
        }
        return nil
    }

    /// The scanner the next item waits on, when the items of the scanner before were all
    /// made (see ``ListStream/scannerAhead``); nil once the page is full.
    var scannerAhead: String? {
        if isFull { return nil }
        return stream.scannerAhead
    }

    /// The scanner the next item most likely comes from, for the group of threads a step runs in.
    var scannerNext: String? { stream.scannerNext }

    /// Passes over ``scannerAhead``, which did not answer within `timeout`, naming it among
    /// this page's problems; false when there is none.
    mutating func skipScannerAhead(after timeout: Duration) -> Bool {
        guard scannerAhead != nil, let skipped = stream.skipScannerAhead() else { return false }
        pageProblems.append(
            Wire.Container(
                scanner: skipped, name: "", writable: false,
                problem:
                    "\(timeout.silence), so the listing went on without it; list it on its own later"
            ))
        return true
    }

    /// What ``finish()`` would say if the listing stopped now, read from memory alone: the
    /// problems met so far and one for the storage a step waited on for `timeout` (the
    /// listing ends there, without a cursor), for an answer that must end without it.
    func stopped(after timeout: Duration) -> (problems: [Wire.Container], hiddenSystemContainers: Int) {
        var problems = (isFirstPage ? stream.problems.map(Wire.Container.init) : []) + pageProblems
        let reading = stream.progress.reading
        problems.append(
            Wire.Container(
                scanner: reading?.scanner ?? "", name: reading?.container ?? "", writable: false,
                problem:
                    "\(timeout.silence), so the listing stops here; list other scanners or containers on their own"
            ))
        return (problems, isFirstPage ? stream.hiddenSystemContainers : 0)
    }

    /// What follows the items: the problems (the containers', for the whole listing, with the
    /// first page only; ``pageProblems`` with every page), the cursor of the next page when more items remain, and (first page only) how many system containers
    /// were hidden.
    mutating func finish() -> (problems: [Wire.Container], nextCursor: ListCursor?, hiddenSystemContainers: Int) {
        var nextCursor: ListCursor?
        if isFull, let last, stream.next() != nil {
            nextCursor = ListCursor(last)
        }
        guard isFirstPage else { return (pageProblems, nextCursor, 0) }
        stream.finishProblems()
        return (stream.problems.map(Wire.Container.init) + pageProblems, nextCursor, stream.hiddenSystemContainers)
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
