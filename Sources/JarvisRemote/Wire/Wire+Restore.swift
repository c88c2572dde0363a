import Foundation
import JarvisCore

/// `restore`: every key the journal saw change since a moment put back as it was, as one change.
extension Wire {
    /// The params of `restore`: `toEntry` or `toTime`, and optionally which containers.
    public struct RestoreParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.restore.rawValue
        /// Leave every key as this journal entry left it (the entries after it are taken back;
        /// it stays); 0 goes back to before the journal's first entry.
        public var toEntry: Int64?
        /// Go back to this moment (ISO 8601).
        public var toTime: Date?
        /// Only these containers (globs, optionally `scanner:container`); empty for all.
        public var containers: [String]
        /// Say what would change, and write nothing.
        public var dryRun: Bool

        /// Params for one restore; give `toEntry` or `toTime`.
        public init(toEntry: Int64? = nil, toTime: Date? = nil, containers: [String] = [], dryRun: Bool = false) {
            self.toEntry = toEntry
            self.toTime = toTime
            self.containers = containers
            self.dryRun = dryRun
        }

        /// `{"toEntry"?,"toTime"?,"containers"?,"dryRun"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("toEntry", toEntry.map(JSONValue.integer))
            object.setIfPresent("toTime", toTime.map { .string(DateText.format($0)) })
            if !containers.isEmpty { object["containers"] = .array(containers.map(JSONValue.string)) }
            if dryRun { object["dryRun"] = .bool(true) }
            return object
        }

        /// Reads the params as the agent receives them.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: .restore, allowed: ["toEntry", "toTime", "containers", "dryRun"])
            if let raw = params["toEntry"] {
                guard let id = raw.int64Value, id >= 0 else {
                    throw RPCError.invalidParams(
                        "toEntry must be a journal entry's id (every later change is taken back), or 0 for before the first")
                }
                toEntry = id
            }
            if let text = try params.optionalString("toTime") {
                guard let date = DateText.parse(text) else {
                    throw RPCError.invalidParams("toTime must be an ISO 8601 time such as 2026-11-28T10:00:00Z")
                }
                toTime = date
            }
            guard (toEntry == nil) != (toTime == nil) else {
                throw RPCError.invalidParams("restore takes toEntry (a journal entry's id) or toTime, one of them")
            }
            containers = try params["containers"].map { raw throws(RPCError) in
                guard let list = raw.arrayValue?.compactMap(\.stringValue), list.count == raw.arrayValue?.count else {
                    throw RPCError.invalidParams("containers must be a list of container names or globs")
                }
                return list
            } ?? []
            dryRun = try params.optionalBool("dryRun") ?? false
        }
    }

    /// One key a restore changes: what it holds now and what it gets back.
    public struct RestoreChange: WireMessage {
        /// `added` (absent now), `changed`, or `removed` (absent then); others may come later.
        public var kind: String
        /// The key.
        public var address: PreferenceAddress
        /// The value now; nil when absent.
        public var now: JournalValue?
        /// The value restored; nil when the restore removes the key.
        public var then: JournalValue?

        /// A change as the agent sends it.
        public init(kind: String, address: PreferenceAddress, now: JournalValue?, then: JournalValue?) {
            self.kind = kind
            self.address = address
            self.now = now
            self.then = then
        }

        /// `{"kind","scanner","container","key","now"?,"then"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "kind": .string(kind), "scanner": .string(address.scanner), "container": .string(address.container),
                "key": .string(address.key),
            ]
            object.setIfPresent("now", now?.json)
            object.setIfPresent("then", then?.json)
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a restore change")
            kind = try fields.string("kind")
            address = PreferenceAddress(
                scanner: try fields.string("scanner"), container: try fields.string("container"),
                key: try fields.string("key"))
            now = try fields["now"].map { raw throws(JarvisError) in try JournalValue(json: raw, "now") }
            then = try fields["then"].map { raw throws(JarvisError) in try JournalValue(json: raw, "then") }
        }
    }

    /// The answer to `restore`.
    public struct RestoreResult: WireMessage {
        /// Whether nothing was written because this was a dry run.
        public var dryRun: Bool
        /// The keys changed (or that would be), in address order.
        public var changes: [RestoreChange]

        /// An answer.
        public init(dryRun: Bool, changes: [RestoreChange]) {
            self.dryRun = dryRun
            self.changes = changes
        }

        /// `{"dryRun","changes":[…]}`
        public var json: JSONValue {
            .object(["dryRun": .bool(dryRun), "changes": .array(changes.map(\.json))])
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a restore answer")
            dryRun = try fields.bool("dryRun")
            changes = try fields.list("changes") { raw throws(JarvisError) in try RestoreChange(json: raw) }
        }
    }
}
