import Foundation
import JarvisCore

/// Recording set, delete and reveal in the audit trail, and answering `history`.
extension AgentService {
    /// Records what one write transaction changed: the revisions come from the transaction
    /// itself (read under the hub's write lock), so nothing is read again for the audit.
    /// - Parameter pointer: where inside the key a pointer edit changed it.
    func record(
        _ outcome: JarvisHub.WriteOutcome, as action: AuditRecord.Action, session: AgentSessionState,
        pointer: JSONPointer? = nil
    ) {
        for change in outcome.changes {
            var record = AuditRecord(
                action: action, client: session.auditClient, address: change.address,
                oldRevision: change.before?.revision,
                newRevision: action == .delete ? nil : change.after?.revision)
            record.pointer = pointer
            audit.record(record)
        }
    }

    /// Records every secret among `items` whose value is about to be sent in clear.
    /// - Returns: how many were recorded.
    @discardableResult
    func recordReveals(_ items: [PreferenceItem], session: AgentSessionState) -> Int {
        let secretScanners = Set(hub.scanners().filter(\.info.isSecret).map(\.id))
        let revealed = items.filter { $0.value != nil && secretScanners.contains($0.address.scanner) }
        recordRevealed(revealed, session: session)
        return revealed.count
    }

    /// The `export` record of a revealing listing marked as an export, recorded once its
    /// answer is complete or dropped (see ``ExportAudit``).
    func exportAudit(_ params: Wire.ListParams, session: AgentSessionState) -> ExportAudit {
        ExportAudit(audit: audit, client: session.auditClient, params: params)
    }

    /// Records secret items known to be sent in clear, one record per item.
    func recordRevealed(_ items: [PreferenceItem], session: AgentSessionState) {
        for item in items {
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
