import Foundation
import JarvisCore

/// `history`: the agent's audit trail.
extension Wire {
    /// The params of `history`; every filter is optional.
    public struct HistoryParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.history.rawValue
        /// The newest this many records (1 to the agent's capacity; default 100).
        public var limit: Int?
        /// Only `set`, `delete`, `reveal` or `export`.
        public var action: String?
        /// Only this scanner (a glob).
        public var scanner: String?
        /// Only containers matching this glob.
        public var container: String?
        /// Only keys matching this glob.
        public var key: String?
        /// Only this client name (from its `hello`).
        public var client: String?

        /// Params with the given filters.
        public init(
            limit: Int? = nil, action: String? = nil, scanner: String? = nil, container: String? = nil,
            key: String? = nil, client: String? = nil
        ) {
            self.limit = limit
            self.action = action
            self.scanner = scanner
            self.container = container
            self.key = key
            self.client = client
        }

        /// `{"limit"?,"action"?,"scanner"?,"container"?,"key"?,"client"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("limit", limit.map(JSONValue.integer))
            object.setIfPresent("action", action.map(JSONValue.string))
            object.setIfPresent("scanner", scanner.map(JSONValue.string))
            object.setIfPresent("container", container.map(JSONValue.string))
            object.setIfPresent("key", key.map(JSONValue.string))
            object.setIfPresent("client", client.map(JSONValue.string))
            return object
        }

        /// Reads the params as the agent receives them; `limit` must lie in `1...capacity`.
        package init(params raw: JSONObject, capacity: Int) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: .history, allowed: ["limit", "action", "scanner", "container", "key", "client"])
            limit = try params.optionalInt("limit", in: 1...max(1, capacity))
            action = try params.optionalString("action")
            scanner = try params.optionalString("scanner")
            container = try params.optionalString("container")
            key = try params.optionalString("key")
            client = try params.optionalString("client")
        }
    }

    /// One audit record: who set, deleted or revealed which key, with revisions, never values.
    public struct HistoryRecord: WireMessage {
        /// The record's number since the agent started.
        public var sequence: Int64
        /// When it happened.
        public var time: Date
        /// `set`, `delete`, `reveal` or `export`; other actions may come in later protocol versions.
        public var action: AuditRecord.Action
        /// `unix`, `tcp` or `in-process`.
        public var transport: AuditRecord.Transport
        /// The peer: a uid/pid on the Unix socket, `host:port` on TCP.
        public var peer: String
        /// The name the client gave in `hello`.
        public var client: String?
        /// The key.
        public var address: PreferenceAddress
        /// The revision before; nil when the key was created.
        public var oldRevision: String?
        /// The revision after; nil when the key was deleted.
        public var newRevision: String?
        /// Where inside the key a pointer edit changed it (`/tags/0`); nil for the whole value.
        /// Added in protocol 1.x; older agents never send it.
        public var pointer: String?
        /// How many secrets an `export` sent in clear; nil for other actions. Added in protocol
        /// 1.x; older agents never send it.
        public var count: Int64?
        /// For an `undo` or `redo`, the journal entry it took back. Added in protocol 1.x; older
        /// agents never send it.
        public var reverts: Int64?

        /// A record as the agent keeps it.
        public init(_ record: AuditRecord) {
            sequence = Int64(clamping: record.sequence)
            time = record.time
            action = record.action
            transport = record.client.transport
            peer = record.client.peer
            client = record.client.name
            address = record.address
            oldRevision = record.oldRevision?.text
            newRevision = record.newRevision?.text
            pointer = record.pointer.flatMap { $0.isWhole ? nil : $0.description }
            count = record.count.map { Int64($0) }
            reverts = record.reverts
        }

        /// `{"sequence","time","action","transport","peer","client"?,"scanner","container","key","pointer"?,"count"?,"reverts"?,"oldRevision"?,"newRevision"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "sequence": .integer(sequence), "time": .string(DateText.format(time)),
                "action": .string(action.rawValue),
                "transport": .string(transport.rawValue), "peer": .string(peer),
            ]
            object.setIfPresent("client", client.map(JSONValue.string))
            object["scanner"] = .string(address.scanner)
            object["container"] = .string(address.container)
            object["key"] = .string(address.key)
            object.setIfPresent("pointer", pointer.map(JSONValue.string))
            object.setIfPresent("count", count.map(JSONValue.integer))
            object.setIfPresent("reverts", reverts.map(JSONValue.integer))
            object.setIfPresent("oldRevision", oldRevision.map(JSONValue.string))
            object.setIfPresent("newRevision", newRevision.map(JSONValue.string))
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a history record")
            sequence = try fields.int64("sequence")
            guard let time = DateText.parse(try fields.string("time")) else {
                throw JarvisError(.storage, "the agent sent a history record whose 'time' is not an ISO 8601 date")
            }
            self.time = time
            action = AuditRecord.Action(rawValue: try fields.string("action"))
            transport = AuditRecord.Transport(rawValue: try fields.string("transport"))
            peer = try fields.string("peer")
            client = try fields.optionalString("client")
            address = PreferenceAddress(
                scanner: try fields.string("scanner"), container: try fields.string("container"),
                key: try fields.string("key"))
            pointer = try fields.optionalString("pointer")
            count = fields["count"]?.int64Value
            reverts = fields["reverts"]?.int64Value
            oldRevision = try fields.optionalString("oldRevision")
            newRevision = try fields.optionalString("newRevision")
        }
    }

    /// The answer to `history`.
    public struct HistoryPage: WireMessage {
        /// The newest matching records, oldest first.
        public var records: [HistoryRecord]
        /// Every record since the agent started, including those the ring forgot.
        public var total: Int64
        /// How many records the agent keeps.
        public var capacity: Int

        /// A page of records.
        public init(records: [HistoryRecord], total: Int64, capacity: Int) {
            self.records = records
            self.total = total
            self.capacity = capacity
        }

        /// `{"records":[…],"total","capacity"}`
        public var json: JSONValue {
            .object([
                "records": .array(records.map(\.json)), "total": .integer(total), "capacity": .integer(capacity),
            ])
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a history answer")
            records = try fields.list("records", HistoryRecord.init(json:))
            total = try fields.int64("total")
            capacity = Int(clamping: try fields.int64("capacity"))
        }
    }
}
