/// The last audit records of an agent, in memory and bounded: a ring that forgets the oldest.
///
/// Pure (no I/O) and thread-safe. A host that must keep every record forwards them as they
/// come (`JarvisAgent.onAudit`) to its own log.
public final class AuditLog: Sendable {
    /// What ``records(matching:limit:)`` keeps; nil members match everything.
    public struct Filter: Sendable, Hashable {
        /// Only this action.
        public var action: AuditRecord.Action?
        /// Only scanners matching this glob.
        public var scanner: GlobPattern?
        /// Only containers matching this glob.
        public var container: GlobPattern?
        /// Only keys matching this glob.
        public var key: GlobPattern?
        /// Only this client name (from `hello`).
        public var client: String?

        /// Creates a filter.
        public init(
            action: AuditRecord.Action? = nil, scanner: GlobPattern? = nil, container: GlobPattern? = nil,
            key: GlobPattern? = nil, client: String? = nil
        ) {
            self.action = action
            self.scanner = scanner
            self.container = container
            self.key = key
            self.client = client
        }

        /// Whether `record` passes the filter.
        public func matches(_ record: AuditRecord) -> Bool {
            if let action, record.action != action { return false }
            if let scanner, !scanner.matches(record.address.scanner) { return false }
            if let container, !container.matches(record.address.container) { return false }
            if let key, !key.matches(record.address.key) { return false }
            if let client, record.client.name != client { return false }
            return true
        }
    }

    private struct Ring {
        var slots: [AuditRecord] = []
        /// Where the next record goes once `slots` is full.
        var next = 0
        var sequence: UInt64 = 0
    }

    /// How many records are kept.
    public let capacity: Int
    private let ring = Locked(Ring())

    /// Creates an empty log keeping at most `capacity` records (at least one).
    public init(capacity: Int = 1000) {
        self.capacity = max(1, capacity)
    }

    /// Stores a record, numbering it, and returns it as stored.
    @discardableResult
    public func append(_ record: AuditRecord) -> AuditRecord {
        ring.withLock { ring in
            ring.sequence += 1
            var numbered = record
            numbered.sequence = ring.sequence
            if ring.slots.count < capacity {
                ring.slots.append(numbered)
            } else {
                ring.slots[ring.next] = numbered
                ring.next = (ring.next + 1) % capacity
            }
            return numbered
        }
    }

    /// The newest `limit` records that match, oldest first.
    public func records(matching filter: Filter = Filter(), limit: Int = .max) -> [AuditRecord] {
        let ordered = ring.withLock { ring in Array(ring.slots[ring.next...] + ring.slots[..<ring.next]) }
        var chosen: [AuditRecord] = []
        for record in ordered.reversed() where chosen.count < limit && filter.matches(record) {
            chosen.append(record)
        }
        return chosen.reversed()
    }

    /// How many records were ever appended, including those the ring forgot.
    public var totalCount: UInt64 { ring.current.sequence }
}
