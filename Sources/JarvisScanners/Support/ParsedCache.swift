import JarvisCore

/// Parsed files kept by key and bounded in bytes: what a scanner keeps so that the next read of
/// an unchanged file parses nothing. Each value is weighed when it is kept (what it holds in
/// memory, ``ScannedEntry/weight``); once the values kept pass ``byteBudget``, those kept
/// longest ago go first, down to the one kept last, which stays even when it alone passes the
/// bound (a suite larger than the bound is parsed once per version, not once per `get`).
/// Once the values let go pass ``releaseBytes``, ``set(_:_:weight:)`` says so, and the owner
/// hands the freed memory back (``FreedMemory/giveBack()``) after its lock.
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
    /// What the values let go weighed since ``set(_:_:weight:)`` last said to give memory back.
    private var letGo = 0

    /// How much the values let go must weigh before memory is given back: a trim walks every
    /// arena, so it is done once per few suites let go, not once per suite.
    static var releaseBytes: Int { 8 << 20 }

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
    /// - Returns: true once the values let go (forgotten, or over the budget) weigh
    ///   ``releaseBytes`` since it last said so: the owner then gives freed memory back.
    @discardableResult
    mutating func set(_ key: Key, _ value: Value?, weight: Int) -> Bool {
        defer { if letGo >= Self.releaseBytes { letGo = 0 } }
        let old = kept.removeValue(forKey: key)
        if let old { bytes -= old.weight }
        guard let value else {
            // Forgotten, not replaced: a replacement most often shares what it replaces.
            letGo += old?.weight ?? 0
            return letGo >= Self.releaseBytes
        }
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
                letGo += found.weight
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
        return letGo >= Self.releaseBytes
    }
}

extension ScannedEntry {
    /// What the entry holds in memory, roughly: its key and value
    /// (``PreferenceValue/weight``) and a fixed overhead.
    var weight: Int { 64 + key.utf8.count + value.weight }
}

extension ParsedCache: Sendable where Key: Sendable, Value: Sendable {}
