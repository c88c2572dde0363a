import Foundation
import JarvisCore

/// Recording set, delete and reveal in the audit trail, and answering `history`.
extension AgentService {
    /// Runs a write, recording the revision it replaced and the one it left.
    ///
    /// Writes through the agent are ordered by one lock, so the old revision read just before
    /// a write is the one that write replaced (the host writing its own storage meanwhile is
    /// outside what the agent can see).
    func recordingWrite(
        _ action: AuditRecord.Action,
        at address: PreferenceAddress,
        session: AgentSessionState,
        _ body: () throws(JarvisError) -> PreferenceItem
    ) throws -> PreferenceItem {
        let (item, old) = try auditedWrites.withLock { _ -> (PreferenceItem, Revision?) in
            let old = action == .delete ? nil : (try? hub.get(address))?.revision
            return (try body(), old)
        }
        let record =
            action == .delete
            ? AuditRecord(
                action: action, client: session.auditClient, address: item.address, oldRevision: item.revision,
                newRevision: nil)
            : AuditRecord(
                action: action, client: session.auditClient, address: item.address, oldRevision: old,
                newRevision: item.revision)
        audit.record(record)
        return item
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
