import JarvisCore

/// The agent's audit trail: the bounded in-memory log plus the host's own listener.
package final class AgentAudit: Sendable {
    /// The last records, for the `history` method.
    package let log: AuditLog
    private let listener = Locked<(@Sendable (AuditRecord) -> Void)?>(nil)

    package init(capacity: Int = 1000) {
        log = AuditLog(capacity: capacity)
    }

    /// Called with every record, on the thread of the connection that caused it.
    package var onRecord: (@Sendable (AuditRecord) -> Void)? {
        get { listener.current }
        set { listener.withLock { $0 = newValue } }
    }

    /// Stores a record and hands it to the listener (outside any lock, so it may call back).
    package func record(_ record: AuditRecord) {
        let stored = log.append(record)
        listener.current?(stored)
    }
}
