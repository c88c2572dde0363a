import Foundation
import JarvisCore

/// `journal`, `undo` and `redo`: the agent's journal of changes with their values, and taking
/// an entry back by a guarded forward write.
extension Wire {
    /// A value in a journal entry: its type, and the value itself unless it is a secret's
    /// (never sent) or was not kept.
    public struct JournalValue: Sendable, Hashable {
        /// The value's type.
        public var type: PreferenceType
        /// The value; nil for a secret's, which never leaves the agent, and for one larger than
        /// ``largest`` (see `bytes`).
        public var value: PreferenceValue?
        /// For a value left out for its size: about how many bytes of JSON it takes (`get` reads it).
        public var bytes: Int64?

        /// The largest value a journal answer carries, in bytes of JSON: larger ones are left
        /// out, so a journal of large values stays within what one answer may hold.
        public static let largest = 16 << 10

        /// A value as a journal entry shows it.
        public init(type: PreferenceType, value: PreferenceValue?, bytes: Int64? = nil) {
            self.type = type
            self.value = value
            self.bytes = bytes
        }

        /// A value as the agent sends it: left out when a secret's, or past ``largest``.
        package init(_ value: PreferenceValue, secret: Bool) {
            type = value.type
            let size = value.minimumJSONBytes(countingPast: Self.largest)
            if secret {
                self.value = nil
            } else if size > Self.largest {
                bytes = Int64(value.minimumJSONBytes(countingPast: Int.max))
            } else {
                self.value = value
            }
        }

        /// `{"type","value"?,"bytes"?}`
        public var json: JSONValue {
            var object: JSONObject = ["type": .string(type.rawValue)]
            object.setIfPresent("value", value?.json)
            object.setIfPresent("bytes", bytes.map(JSONValue.integer))
            return .object(object)
        }

        init(json: JSONValue, _ name: String) throws(JarvisError) {
            let fields = try WireFields(json, "a journal value (\(name))")
            guard let type = try fields.type("type") else {
                throw JarvisError(.storage, "the agent sent a journal value (\(name)) without its 'type'")
            }
            self.type = type
            value = try fields["value"].map { raw throws(JarvisError) in try PreferenceValue(json: raw, as: type) }
            bytes = fields["bytes"]?.int64Value
        }
    }

    /// One journal entry: a change's values before and after, its revisions, who and when.
    public struct JournalEntry: WireMessage {
        /// The entry's id, increasing across agent restarts: what `undo` takes.
        public var id: Int64
        /// When the change was made or seen.
        public var time: Date
        /// `set`, `delete`, `reset`, `outside`, `undo`, `redo`, `restore` or `rollback`; others may
        /// come later.
        public var action: String
        /// The key.
        public var address: PreferenceAddress
        /// The member a nested edit changed; nil for the whole value.
        public var pointer: String?
        /// The member (or value) before; nil when it was absent or is not known.
        public var before: JournalValue?
        /// The member (or value) after; nil when it is absent or not known.
        public var after: JournalValue?
        /// The key's revision before; nil when nothing was stored.
        public var beforeRevision: String?
        /// The key's revision after; nil when nothing is stored any more.
        public var afterRevision: String?
        /// `unix`, `tcp` or `in-process`; nil for a change made outside the agent.
        public var transport: String?
        /// The client's name from its `hello`.
        public var client: String?
        /// A secret's entry: values are never sent.
        public var secret: Bool
        /// Whether `undo` (for an undo entry, `redo`) can still take it back.
        public var undoable: Bool
        /// Why it cannot be taken back, when it cannot.
        public var reason: String?
        /// For an undo or redo, the entry it took back.
        public var reverts: Int64?
        /// The undo or redo that took this entry back.
        public var undoneBy: Int64?
        /// Where the container lived when the change was made (a file's resolved path, a
        /// suite's domain and app); nil for a scanner whose values live in the program.
        public var place: String?
        /// For one key of a change of several (a restore, an import, a bulk delete, an undo of
        /// one of those): the id of the change's first entry, shared by all of them; `undo` and
        /// `redo` take back the whole group or nothing. Added in protocol 1.x; older agents
        /// never send it.
        public var group: Int64?
        /// The name the client gave the change this entry is one write of (`change` on `set`
        /// and `delete`; a fan-out's id, the same on every agent it reached). Added in protocol
        /// 1.x; older agents never send it.
        public var change: String?

        /// An entry as the agent sends it: a secret's values left out.
        /// - Parameter elsewhere: where the container lives now, when that is not where the
        ///   entry was made (then it cannot be undone here).
        package init(_ entry: JarvisCore.JournalEntry, elsewhere: String?? = nil) {
            place = entry.place
            id = entry.id
            time = entry.time
            action = entry.action.rawValue
            address = entry.address
            pointer = entry.pointer.flatMap { $0.isWhole ? nil : $0.description }
            let hide = entry.isSecret || !entry.valuesKept
            before = entry.memberBefore.map { JournalValue($0, secret: hide) }
            after = entry.memberAfter.map { JournalValue($0, secret: hide) }
            beforeRevision = entry.beforeRevision?.text
            afterRevision = entry.afterRevision?.text
            transport = entry.client?.transport.rawValue
            client = entry.client?.name
            secret = entry.isSecret
            reverts = entry.reverts
            undoneBy = entry.undoneBy
            group = entry.group
            change = entry.change
            if entry.isRollback {
                reason = "put back a key of a change refused part way (entry \(entry.reverts ?? entry.id))"
            } else if let by = entry.undoneBy, entry.isRolledBack {
                reason = "refused part way and put back by entry \(by): it never took effect"
            } else if let by = entry.undoneBy {
                reason = "taken back by entry \(by)"
            } else if let now = elsewhere {
                reason =
                    "made at \(entry.place ?? "the program's own values"); this agent serves it at \(now ?? "the program's own values")"
            } else if !entry.valuesKept {
                reason =
                    entry.isSecret
                    ? "a secret's earlier value is not kept across a restart" : "too large for the journal's budget"
            }
            undoable = reason == nil
        }

        /// `{"id","time","action","scanner","container","key","pointer"?,"before"?,"after"?,"beforeRevision"?,"afterRevision"?,"transport"?,"client"?,"secret"?,"undoable","reason"?,"reverts"?,"undoneBy"?,"place"?,"group"?,"change"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "id": .integer(id), "time": .string(DateText.format(time)), "action": .string(action),
                "scanner": .string(address.scanner), "container": .string(address.container),
                "key": .string(address.key),
            ]
            object.setIfPresent("pointer", pointer.map(JSONValue.string))
            object.setIfPresent("before", before?.json)
            object.setIfPresent("after", after?.json)
            object.setIfPresent("beforeRevision", beforeRevision.map(JSONValue.string))
            object.setIfPresent("afterRevision", afterRevision.map(JSONValue.string))
            object.setIfPresent("transport", transport.map(JSONValue.string))
            object.setIfPresent("client", client.map(JSONValue.string))
            if secret { object["secret"] = .bool(true) }
            object["undoable"] = .bool(undoable)
            object.setIfPresent("reason", reason.map(JSONValue.string))
            object.setIfPresent("reverts", reverts.map(JSONValue.integer))
            object.setIfPresent("undoneBy", undoneBy.map(JSONValue.integer))
            object.setIfPresent("place", place.map(JSONValue.string))
            object.setIfPresent("group", group.map(JSONValue.integer))
            object.setIfPresent("change", change.map(JSONValue.string))
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a journal entry")
            id = try fields.int64("id")
            guard let time = DateText.parse(try fields.string("time")) else {
                throw JarvisError(.storage, "the agent sent a journal entry whose 'time' is not an ISO 8601 date")
            }
            self.time = time
            action = try fields.string("action")
            address = PreferenceAddress(
                scanner: try fields.string("scanner"), container: try fields.string("container"),
                key: try fields.string("key"))
            pointer = try fields.optionalString("pointer")
            before = try fields["before"].map { raw throws(JarvisError) in try JournalValue(json: raw, "before") }
            after = try fields["after"].map { raw throws(JarvisError) in try JournalValue(json: raw, "after") }
            beforeRevision = try fields.optionalString("beforeRevision")
            afterRevision = try fields.optionalString("afterRevision")
            transport = try fields.optionalString("transport")
            client = try fields.optionalString("client")
            secret = try fields.optionalBool("secret") ?? false
            undoable = try fields.bool("undoable")
            reason = try fields.optionalString("reason")
            reverts = fields["reverts"]?.int64Value
            undoneBy = fields["undoneBy"]?.int64Value
            place = try fields.optionalString("place")
            group = fields["group"]?.int64Value
            change = try fields.optionalString("change")
        }
    }

    /// The params of `journal`; every filter is optional.
    public struct JournalParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.journal.rawValue
        /// The newest this many entries (1 to 10000; default 100).
        public var limit: Int?
        /// Only this scanner (a glob).
        public var scanner: String?
        /// Only containers matching this glob.
        public var container: String?
        /// Only keys matching this glob.
        public var key: String?

        /// Params with the given filters.
        public init(limit: Int? = nil, scanner: String? = nil, container: String? = nil, key: String? = nil) {
            self.limit = limit
            self.scanner = scanner
            self.container = container
            self.key = key
        }

        /// `{"limit"?,"scanner"?,"container"?,"key"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("limit", limit.map(JSONValue.integer))
            object.setIfPresent("scanner", scanner.map(JSONValue.string))
            object.setIfPresent("container", container.map(JSONValue.string))
            object.setIfPresent("key", key.map(JSONValue.string))
            return object
        }

        /// Reads the params as the agent receives them.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(params: raw, method: .journal, allowed: ["limit", "scanner", "container", "key"])
            limit = try params.optionalInt("limit", in: 1...10_000)
            scanner = try params.optionalString("scanner")
            container = try params.optionalString("container")
            key = try params.optionalString("key")
        }
    }

    /// The answer to `journal`.
    public struct JournalPage: WireMessage {
        /// The newest matching entries, oldest first.
        public var entries: [JournalEntry]
        /// The bytes the journal holds in memory now.
        public var bytes: Int64
        /// The journal's byte budget.
        public var budget: Int64
        /// What went wrong reading the journal file at start (it was set aside); empty when nothing.
        public var problems: [String]

        /// A page of entries.
        public init(entries: [JournalEntry], bytes: Int64, budget: Int64, problems: [String] = []) {
            self.entries = entries
            self.bytes = bytes
            self.budget = budget
            self.problems = problems
        }

        /// `{"entries":[…],"bytes","budget","problems"?:[…]}`
        public var json: JSONValue {
            var object: JSONObject = [
                "entries": .array(entries.map(\.json)), "bytes": .integer(bytes), "budget": .integer(budget),
            ]
            if !problems.isEmpty { object["problems"] = .array(problems.map(JSONValue.string)) }
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a journal answer")
            entries = try fields.list("entries") { raw throws(JarvisError) in try JournalEntry(json: raw) }
            bytes = try fields.int64("bytes")
            budget = try fields.int64("budget")
            problems = try fields["problems"].map { raw throws(JarvisError) in
                guard let list = raw.arrayValue?.compactMap(\.stringValue) else {
                    throw JarvisError(.storage, "the agent sent a journal answer whose 'problems' is not a list of text")
                }
                return list
            } ?? []
        }
    }

    /// The params of `undo` and `redo`.
    public struct UndoParams: WireParams {
        /// The method name on the wire (`redo` sends the same params).
        public static let method = AgentMethod.undo.rawValue
        /// The entry to take back; nil takes the newest change still standing (for `redo`, the
        /// newest undo).
        public var id: Int64?
        /// Say what would be written, and write nothing.
        public var dryRun: Bool
        /// Write even though the key changed since the entry, provided it is at this revision now.
        public var forceAt: String?
        /// Without an id: only a change of this key.
        public var key: String?
        /// Without an id: only a change in this container (`scanner:container`, or a container
        /// alone).
        public var container: String?
        /// Without an id: only a change made by a client of this connection's name (the name
        /// its `hello` gave): a face takes back what it did itself.
        public var mine: Bool
        /// Without an id: only an entry of the change the client gave this name (a fan-out's
        /// id). Added in protocol 1.x.
        public var change: String?

        /// Params for one undo or redo.
        public init(
            id: Int64? = nil, dryRun: Bool = false, forceAt: String? = nil, key: String? = nil,
            container: String? = nil, mine: Bool = false, change: String? = nil
        ) {
            self.change = change
            self.id = id
            self.dryRun = dryRun
            self.forceAt = forceAt
            self.key = key
            self.container = container
            self.mine = mine
        }

        /// `{"id"?,"dryRun"?,"forceAt"?,"key"?,"container"?,"mine"?,"change"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("id", id.map(JSONValue.integer))
            if dryRun { object["dryRun"] = .bool(true) }
            object.setIfPresent("forceAt", forceAt.map(JSONValue.string))
            object.setIfPresent("key", key.map(JSONValue.string))
            object.setIfPresent("container", container.map(JSONValue.string))
            if mine { object["mine"] = .bool(true) }
            object.setIfPresent("change", change.map(JSONValue.string))
            return object
        }

        /// Reads the params as the agent receives them, for `undo` or `redo`.
        package init(params raw: JSONObject, method: AgentMethod = .undo) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: method, allowed: ["id", "dryRun", "forceAt", "key", "container", "mine", "change"])
            if let raw = params["id"] {
                guard let id = raw.int64Value, id > 0 else {
                    throw RPCError.invalidParams("id must be a journal entry's id, a whole number from 1 (see `journal`)")
                }
                self.id = id
            }
            dryRun = try params.optionalBool("dryRun") ?? false
            forceAt = try params.optionalString("forceAt")
            key = try params.optionalString("key")
            container = try params.optionalString("container")
            mine = try params.optionalBool("mine") ?? false
            change = try params.optionalString("change")
            if id != nil, key != nil || container != nil || mine || change != nil {
                throw RPCError.invalidParams(
                    "key, container, mine and change choose an entry when no id is given; send one or the other")
            }
        }
    }

    /// The params of `redo`: those of `undo`, sent as `redo`.
    public struct RedoParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.redo.rawValue
        /// The undo to take back, whether to write, and the revision to force at.
        public var params: UndoParams

        /// Params for one redo (see ``UndoParams``).
        public init(id: Int64? = nil, dryRun: Bool = false, forceAt: String? = nil) {
            params = UndoParams(id: id, dryRun: dryRun, forceAt: forceAt)
        }

        /// Params for one redo that chooses its undo as ``UndoParams`` does (key, container, mine).
        public init(params: UndoParams) {
            self.params = params
        }

        /// As ``UndoParams/json``.
        public var json: JSONObject { params.json }
    }

    /// The answer to `undo` and `redo`.
    public struct UndoResult: WireMessage {
        /// The entry taken back (as it stands now: `undoneBy` names the new entry).
        public var undone: JournalEntry
        /// The entry the undo wrote; nil for a dry run.
        public var entry: JournalEntry?
        /// Whether nothing was written because this was a dry run.
        public var dryRun: Bool
        /// For a dry run: the key changed since the entry, so the undo would write nothing.
        public var conflict: Bool
        /// What is (or would be) written back; nil when the undo removes it. A secret's value is
        /// never sent: only its type.
        public var restore: JournalValue?
        /// The key now (after the undo, or as it is for a dry run); nil when nothing is stored.
        public var item: PreferenceItem?
        /// For a change of several keys (entries sharing a `group`): every entry taken back (or
        /// that would be), oldest first, `undone` being the first. Empty for one key's change.
        /// Added in protocol 1.x; older agents never send it.
        public var undoneGroup: [JournalEntry] = []
        /// For a change of several keys: every entry the undo wrote, oldest first (the keys are
        /// taken back newest first), `entry` being the one of `undone`'s key. Added in protocol
        /// 1.x; older agents never send it.
        public var entries: [JournalEntry] = []

        /// An answer.
        public init(
            undone: JournalEntry, entry: JournalEntry?, dryRun: Bool, conflict: Bool, restore: JournalValue?,
            item: PreferenceItem?, undoneGroup: [JournalEntry] = [], entries: [JournalEntry] = []
        ) {
            self.undoneGroup = undoneGroup
            self.entries = entries
            self.undone = undone
            self.entry = entry
            self.dryRun = dryRun
            self.conflict = conflict
            self.restore = restore
            self.item = item
        }

        /// `{"undone":{…},"entry"?:{…},"dryRun","conflict"?,"restore"?:{…},"item"?:{…},"undoneGroup"?:[…],"entries"?:[…]}`
        public var json: JSONValue {
            var object: JSONObject = ["undone": undone.json]
            object.setIfPresent("entry", entry?.json)
            if !undoneGroup.isEmpty { object["undoneGroup"] = .array(undoneGroup.map(\.json)) }
            if !entries.isEmpty { object["entries"] = .array(entries.map(\.json)) }
            object["dryRun"] = .bool(dryRun)
            if conflict { object["conflict"] = .bool(true) }
            object.setIfPresent("restore", restore?.json)
            object.setIfPresent("item", item.map(WireItem.encode))
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "an undo answer")
            guard let undone = fields["undone"] else {
                throw JarvisError(.storage, "the agent sent an undo answer without 'undone'")
            }
            self.undone = try JournalEntry(json: undone)
            entry = try fields["entry"].map { raw throws(JarvisError) in try JournalEntry(json: raw) }
            dryRun = try fields.bool("dryRun")
            conflict = try fields.optionalBool("conflict") ?? false
            restore = try fields["restore"].map { raw throws(JarvisError) in try JournalValue(json: raw, "restore") }
            item = try fields["item"].map { raw throws(JarvisError) in try WireItem.decode(raw) }
            let entry = { (raw: JSONValue) throws(JarvisError) in try JournalEntry(json: raw) }
            undoneGroup = fields["undoneGroup"] == nil ? [] : try fields.list("undoneGroup", entry)
            entries = fields["entries"] == nil ? [] : try fields.list("entries", entry)
        }
    }
}
