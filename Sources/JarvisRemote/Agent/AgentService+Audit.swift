import Foundation
import JarvisCore

/// Recording set, delete and reveal in the audit trail, and answering `history`.
extension AgentService {
    /// Records what one write transaction changed: the revisions come from the transaction
    /// itself (read under the hub's write lock), so nothing is read again for the audit.
    func record(_ outcome: JarvisHub.WriteOutcome, as action: AuditRecord.Action, session: AgentSessionState) {
        for change in outcome.changes {
            audit.record(
                AuditRecord(
                    action: action, client: session.auditClient, address: change.address,
                    oldRevision: change.before?.revision,
                    newRevision: action == .delete ? nil : change.after?.revision))
        }
    }

    /// Records every secret among `items` whose value is about to be sent in clear.
    func recordReveals(_ items: [PreferenceItem], session: AgentSessionState) {
        let secretScanners = Set(hub.scanners().filter(\.info.isSecret).map(\.id))
        for item in items where item.value != nil && secretScanners.contains(item.address.scanner) {
            audit.record(
                AuditRecord(
                    action: .reveal, client: session.auditClient, address: item.address, oldRevision: item.revision,
                    newRevision: item.revision))
        }
    }

    /// `history`: the newest records, oldest first.
    func history(_ raw: JSONObject) throws -> JSONValue {
        let params = try Params(
            raw, method: "history", allowed: ["limit", "action", "scanner", "container", "key", "client"])
        let limit = try params.optionalInt("limit", in: 1...audit.log.capacity) ?? min(100, audit.log.capacity)
        let filter = AuditLog.Filter(
            action: try params.optionalString("action").map(AuditRecord.Action.init(rawValue:)),
            scanner: try params.optionalString("scanner").map { GlobPattern($0) },
            container: try params.optionalString("container").map { GlobPattern($0) },
            key: try params.optionalString("key").map { GlobPattern($0) },
            client: try params.optionalString("client"))
        let records = audit.log.records(matching: filter, limit: limit)
        return .object([
            "records": .array(records.map(Self.encode)),
            "total": .number(JSONNumber(Int64(clamping: audit.log.totalCount))),
            "capacity": .number(JSONNumber(audit.log.capacity)),
        ])
    }

    /// The wire shape of a record.
    package static func encode(_ record: AuditRecord) -> JSONValue {
        var object: JSONObject = [
            "sequence": .number(JSONNumber(Int64(clamping: record.sequence))),
            "time": .string(DateText.format(record.time)),
            "action": .string(record.action.rawValue),
            "transport": .string(record.client.transport),
            "peer": .string(record.client.peer),
        ]
        if let name = record.client.name { object["client"] = .string(name) }
        object["scanner"] = .string(record.address.scanner)
        object["container"] = .string(record.address.container)
        object["key"] = .string(record.address.key)
        if let old = record.oldRevision { object["oldRevision"] = .string(old.text) }
        if let new = record.newRevision { object["newRevision"] = .string(new.text) }
        return .object(object)
    }
}
