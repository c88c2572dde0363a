import Foundation
import JarvisCore

/// `watch`, `unwatch` and the `changed` notification.
extension Wire {
    /// The params of `watch`; every filter is optional.
    public struct WatchParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.watch.rawValue
        /// Only this scanner.
        public var scanner: String?
        /// Only containers matching this glob.
        public var container: String?
        /// Only keys matching this glob.
        public var key: String?
        /// Send secrets' values, where the agent allows it.
        public var reveal: Bool
        /// Resume after this sequence number (the last one seen).
        public var since: Int64?

        /// Params with the given filters.
        public init(
            scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false,
            since: Int64? = nil
        ) {
            self.scanner = scanner
            self.container = container
            self.key = key
            self.reveal = reveal
            self.since = since
        }

        /// `{"scanner"?,"container"?,"key"?,"reveal"?,"since"?}`
        public var json: JSONObject {
            var object = JSONObject.filters(scanner: scanner, container: container, key: key, reveal: reveal)
            object.setIfPresent("since", since.map(JSONValue.integer))
            return object
        }

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: .watch, allowed: ["scanner", "container", "key", "reveal", "since"])
            scanner = try params.optionalString("scanner")
            container = try params.optionalString("container")
            key = try params.optionalString("key")
            reveal = try params.optionalBool("reveal") ?? false
            since = try params.optionalInt("since", in: 0...Int.max - 1).map(Int64.init)
        }
    }

    /// The answer to `watch`.
    public struct WatchResult: WireMessage {
        /// The subscription's id: pass it to `unwatch`; notifications carry it.
        public var id: String
        /// The agent's latest sequence number when the subscription started.
        public var sequence: Int64
        /// With `since`: true when the missed changes follow, false when they are lost and the
        /// client must list again. Nil without `since`.
        public var resumed: Bool?

        /// An answer to `watch`.
        public init(id: String, sequence: Int64, resumed: Bool? = nil) {
            self.id = id
            self.sequence = sequence
            self.resumed = resumed
        }

        /// `{"subscription","sequence","resumed"?}`
        public var json: JSONValue {
            var object: JSONObject = ["subscription": .string(id), "sequence": .integer(sequence)]
            object.setIfPresent("resumed", resumed.map(JSONValue.bool))
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a watch answer")
            id = try fields.string("subscription")
            sequence = try fields.int64("sequence")
            resumed = try fields.optionalBool("resumed")
        }
    }

    /// The params of `unwatch`.
    public struct UnwatchParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.unwatch.rawValue
        /// The subscription to end.
        public var subscription: String

        /// Params ending `subscription`.
        public init(subscription: String) { self.subscription = subscription }

        /// `{"subscription"}`
        public var json: JSONObject { ["subscription": .string(subscription)] }

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            subscription = try WireFields(params: raw, method: .unwatch, allowed: ["subscription"]).string(
                "subscription")
        }
    }

    /// The answer to `unwatch`.
    public struct UnwatchResult: WireMessage {
        /// The subscription that ended.
        public var unwatched: String

        /// The answer for `unwatched`.
        public init(unwatched: String) { self.unwatched = unwatched }

        /// `{"unwatched"}`
        public var json: JSONValue { .object(["unwatched": .string(unwatched)]) }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            unwatched = try WireFields(json, "an unwatch answer").string("unwatched")
        }
    }

    /// The `changed` notification's params (the type is ``ChangeNotification``).
    public typealias Changed = ChangeNotification
}

/// One `changed` notification: what changed in one container, in order.
public struct ChangeNotification: WireMessage {
    /// The method name of the notification.
    public static let method = "changed"

    /// One key's change.
    public struct Change: Sendable, Hashable {
        /// `added`, `updated` or `removed`; other kinds may come in later protocol versions.
        public var kind: Kind
        /// The key that changed.
        public var address: PreferenceAddress
        /// The item now; nil when removed.
        public var item: PreferenceItem?
        /// The item before; nil when added.
        public var old: PreferenceItem?

        /// A change of `address`.
        public init(kind: Kind, address: PreferenceAddress, item: PreferenceItem?, old: PreferenceItem?) {
            self.kind = kind
            self.address = address
            self.item = item
            self.old = old
        }

        /// `{"kind","scanner","container","key","item"?,"old"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "kind": .string(kind.rawValue), "scanner": .string(address.scanner),
                "container": .string(address.container),
                "key": .string(address.key),
            ]
            object.setIfPresent("item", item.map(WireItem.encode))
            object.setIfPresent("old", old.map(WireItem.encode))
            return .object(object)
        }

        /// Reads a change an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a change")
            guard let kind = fields["kind"]?.stringValue, let scanner = fields["scanner"]?.stringValue,
                let container = fields["container"]?.stringValue, let key = fields["key"]?.stringValue
            else {
                throw JarvisError(.storage, "the agent sent a change without kind, scanner, container and key")
            }
            self.kind = Kind(rawValue: kind)
            address = PreferenceAddress(scanner: scanner, container: container, key: key)
            item = try fields["item"].map(WireItem.decode)
            old = try fields["old"].map(WireItem.decode)
        }
    }

    /// The subscription it belongs to.
    public var subscription: String
    /// The agent's sequence number; pass the last one seen as `since` to resume.
    public var sequence: Int64
    /// When the agent saw the change.
    public var time: Date?
    /// The changes, in key order.
    public var changes: [Change]
    /// The container became unreadable (`changes` is then empty) or readable again (`changes`
    /// then holds what differs from its last good read); nil otherwise.
    public var container: ContainerChange?

    /// A notification for `subscription`.
    public init(
        subscription: String, sequence: Int64, time: Date?, changes: [Change], container: ContainerChange? = nil
    ) {
        self.subscription = subscription
        self.sequence = sequence
        self.time = time
        self.changes = changes
        self.container = container
    }

    /// `{"subscription","sequence","time","changes":[…],"container"?}`: the notification's params.
    public var params: JSONObject {
        var object: JSONObject = ["subscription": .string(subscription), "sequence": .integer(sequence)]
        object.setIfPresent("time", time.map { .string(DateText.format($0)) })
        object["changes"] = .array(changes.map(\.json))
        object.setIfPresent("container", container?.json)
        return object
    }

    /// The params as a JSON value.
    public var json: JSONValue { .object(params) }

    /// Reads the params of a `changed` notification.
    /// - Throws: ``JarvisError`` `.storage` when the agent sent something malformed.
    public init(json: JSONValue) throws(JarvisError) {
        guard case .object(let params) = json, let subscription = params["subscription"]?.stringValue,
            let sequence = params["sequence"]?.int64Value
        else {
            throw JarvisError(.storage, "the agent sent a changed notification without subscription and sequence")
        }
        self.subscription = subscription
        self.sequence = sequence
        time = params["time"]?.stringValue.flatMap(DateText.parse)
        changes = []
        for raw in params["changes"]?.arrayValue ?? [] { changes.append(try Change(json: raw)) }
        container = try params["container"].map { value throws(JarvisError) in try ContainerChange(json: value) }
    }

    /// Decodes the params of a `changed` notification.
    package init(params: JSONObject) throws(JarvisError) {
        try self.init(json: .object(params))
    }
}
