import JarvisCore

/// `list`: items page by page.
extension Wire {
    /// The params of `list`; every filter is optional.
    public struct ListParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.list.rawValue
        /// Only this scanner.
        public var scanner: String?
        /// Only containers matching this glob.
        public var container: String?
        /// Only keys matching this glob.
        public var key: String?
        /// Ask for secrets' values, where the agent allows it.
        public var reveal: Bool
        /// Only stored keys the host's key catalog does not declare (orphans).
        public var undeclared: Bool
        /// At most this many items (1 to 10,000); nil for everything at once.
        public var limit: Int?
        /// Where the previous page stopped (its `nextCursor`).
        public var cursor: String?
        /// The listing is an export (a snapshot to keep or share): with ``reveal``, the agent
        /// records it in the audit trail as one `export` beside each secret's `reveal`. Added in
        /// protocol 1.x; older agents refuse the member.
        public var export: Bool

        /// Params with the given filters.
        public init(
            scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false,
            undeclared: Bool = false, limit: Int? = nil, cursor: String? = nil, export: Bool = false
        ) {
            self.export = export
            self.scanner = scanner
            self.container = container
            self.key = key
            self.reveal = reveal
            self.undeclared = undeclared
            self.limit = limit
            self.cursor = cursor
        }

        /// `{"scanner"?,"container"?,"key"?,"reveal"?,"undeclared"?,"limit"?,"cursor"?,"export"?}`
        public var json: JSONObject {
            var object = JSONObject.filters(scanner: scanner, container: container, key: key, reveal: reveal)
            if undeclared { object["undeclared"] = true }
            object.setIfPresent("limit", limit.map(JSONValue.integer))
            object.setIfPresent("cursor", cursor.map(JSONValue.string))
            if export { object["export"] = true }
            return object
        }

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: .list,
                allowed: ["scanner", "container", "key", "reveal", "undeclared", "limit", "cursor", "export"])
            scanner = try params.optionalString("scanner")
            container = try params.optionalString("container")
            key = try params.optionalString("key")
            reveal = try params.optionalBool("reveal") ?? false
            undeclared = try params.optionalBool("undeclared") ?? false
            limit = try params.optionalInt("limit", in: 1...Wire.maxPageSize)
            cursor = try params.optionalString("cursor")
            export = try params.optionalBool("export") ?? false
        }
    }

    /// The most items one `list` page may ask for.
    public static let maxPageSize = 10_000

    /// What the items of one `list` page with `limit` may take as JSON, roughly (each item's
    /// value counted by its text and data, as ``PreferenceValue/minimumJSONBytes(countingPast:)``
    /// counts it, and its names): a page ends with `nextCursor` after the item that passes it,
    /// so a page stays far below a client's line limit however large its values are.
    package static let maxPageBytes = 8 << 20

    /// What one listed item's value may take as JSON, counted the same way: an item past it is
    /// left out of the listing, with a problem for its container naming the key. Half a
    /// client's 64 MiB line, so a page and its last item fit in one.
    package static let maxItemBytes = 32 << 20

    /// The answer to `list`: one page of items, and the containers that could not be read.
    public struct ListPage: WireMessage {
        /// The items, in the agent's order (scanner, container, key).
        public var items: [PreferenceItem]
        /// Containers that could not be read (first page only).
        public var problems: [Container]
        /// Where the next page starts; nil on the last page.
        public var nextCursor: String?
        /// How many of Apple's own domains the agent hid (first page only; 0 when none), so a
        /// listing can say how to show them (`jarvis-agent --system-domains`).
        public var hiddenSystemContainers: Int

        /// A page.
        public init(
            items: [PreferenceItem], problems: [Container], nextCursor: String? = nil, hiddenSystemContainers: Int = 0
        ) {
            self.items = items
            self.problems = problems
            self.nextCursor = nextCursor
            self.hiddenSystemContainers = hiddenSystemContainers
        }

        /// `{"items":[…],"problems":[…],"nextCursor"?,"hiddenSystemContainers"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "items": .array(items.map(WireItem.encode)), "problems": .array(problems.map(\.json)),
            ]
            object.setIfPresent("nextCursor", nextCursor.map(JSONValue.string))
            if hiddenSystemContainers > 0 { object["hiddenSystemContainers"] = .integer(hiddenSystemContainers) }
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a list answer")
            items = try fields.list("items", WireItem.decode)
            problems = try fields["problems"] == nil ? [] : fields.list("problems", Container.init(json:))
            nextCursor = try fields.optionalString("nextCursor")
            hiddenSystemContainers =
                fields["hiddenSystemContainers"] == nil
                ? 0 : Int(clamping: try fields.int64("hiddenSystemContainers"))
        }
    }
}
