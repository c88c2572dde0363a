import JarvisCore

/// Parsed files kept by key and bounded in bytes: what a scanner keeps so that the next read of
/// an unchanged file parses nothing. Each value is weighed when it is kept (what it holds in
/// memory, ``ScannedEntry/weight``); once the values kept pass ``byteBudget``, those kept
/// longest ago go first, down to the one kept last, which stays even when it alone passes the
/// bound (a suite larger than the bound is parsed once per version, not once per `get`).
///
/// A plain value: its owner keeps it behind its own lock.
struct ParsedCache<Key: Hashable, Value> {
    /// What the values kept may weigh together, in bytes.
    let byteBudget: Int
    /// What the values kept weigh now.
    private(set) var bytes = 0
    private var kept: [Key: (value: Value, weight: Int, turn: UInt64)] = [:]
    /// Keys in the order kept, the oldest first from `head`; a key kept again since is skipped.
    private var order: [(key: Key, turn: UInt64)] = []
    private var head = 0
    private var turn: UInt64 = 0

    /// What scanners keep unless told otherwise: 32 MiB of parsed files.
    static var defaultBytes: Int { 32 << 20 }

    /// An empty cache that keeps at most `byteBudget` bytes (besides the value kept last).
    init(byteBudget: Int = Self.defaultBytes) {
        self.byteBudget = max(0, byteBudget)
    }

    /// The value kept for `key`.
    subscript(key: Key) -> Value? {
        kept[key]?.value
    }

    /// How many values are kept.
    var count: Int { kept.count }

    /// Keeps `value` for `key` (nil forgets it), weighing `weight` bytes, and lets the values
    /// kept longest ago go while the cache is over its budget.
    mutating func set(_ key: Key, _ value: Value?, weight: Int) {
        if let old = kept.removeValue(forKey: key) { bytes -= old.weight }
        guard let value else { return }
        turn += 1
        kept[key] = (value, weight, turn)
        order.append((key, turn))
        bytes += weight
        while bytes > byteBudget, head < order.count, order[head].key != key || order[head].turn != turn {
            let oldest = order[head]
            head += 1
            if let found = kept[oldest.key], found.turn == oldest.turn {
                kept[oldest.key] = nil
                bytes -= found.weight
            }
        }
        // The order holds a key once per time it was kept: rebuilt from what is kept once most
        // of it is spent, so it stays within a few times the keys kept.
        if order.count - head > 2 * kept.count + 64 {
            order = order[head...].filter { kept[$0.key]?.turn == $0.turn }
            head = 0
        } else if head > 64, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}

extension ScannedEntry {
    /// What the entry holds in memory, roughly: its key and value
    /// (``PreferenceValue/weight``) and a fixed overhead.
    var weight: Int { 64 + key.utf8.count + value.weight }
}

extension ParsedCache: Sendable where Key: Sendable, Value: Sendable {}
