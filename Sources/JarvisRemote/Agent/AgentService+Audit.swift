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
        let params = try Wire.HistoryParams(params: raw, capacity: audit.log.capacity)
        let filter = AuditLog.Filter(
            action: params.action.map(AuditRecord.Action.init(rawValue:)),
            scanner: params.scanner.map { GlobPattern($0) },
            container: params.container.map { GlobPattern($0) },
            key: params.key.map { GlobPattern($0) },
            client: params.client)
        let records = audit.log.records(matching: filter, limit: params.limit ?? min(100, audit.log.capacity))
        return Wire.HistoryPage(
            records: records.map(Wire.HistoryRecord.init), total: Int64(clamping: audit.log.totalCount),
            capacity: audit.log.capacity
        ).json
    }

    /// The wire shape of a record.
    package static func encode(_ record: AuditRecord) -> JSONValue {
        Wire.HistoryRecord(record).json
    }
}
