import JarvisCore

/// The `export` audit record of one revealing listing marked as an export: it counts the
/// secrets the answer sends in clear and is recorded once, when the answer is complete or,
/// should the client stop reading or hang up first, when the answer is dropped. A client
/// therefore cannot take an export's secrets without the export being in the trail.
final class ExportAudit: Sendable {
    private struct State {
        var secrets = 0
        var recorded = false
    }

    private let state = Locked(State())
    private let record: AuditRecord
    private let audit: AgentAudit

    /// An export by `client` of the listing with these filters (nil: every one).
    init(audit: AgentAudit, client: AuditRecord.Client, params: Wire.ListParams) {
        self.audit = audit
        record = AuditRecord(
            action: .export, client: client,
            address: PreferenceAddress(
                scanner: params.scanner ?? "*", container: params.container ?? "*", key: params.key ?? "*"),
            oldRevision: nil, newRevision: nil)
    }

    deinit { finish() }

    /// Counts secrets about to be sent in clear.
    func sent(secrets: Int) {
        state.withLock { $0.secrets += secrets }
    }

    /// Records the export (once) with the secrets counted so far.
    func finish() {
        let secrets: Int? = state.withLock { state in
            guard !state.recorded else { return nil }
            state.recorded = true
            return state.secrets
        }
        guard let secrets else { return }
        var finished = record
        finished.time = .now
        finished.count = secrets
        audit.record(finished)
    }
}
