/// Values found a moment ago, by name: what the steps of one request hand each other (where a
/// container leads, the item a read found) so that storage is not asked again. Bounded in
/// count and in age, and holding only small values (never a secret).
struct RecentlyFound<Value: Sendable>: Sendable {
    private var entries: [(name: String, value: Value, at: ContinuousClock.Instant)] = []

    /// Enough for every request under way; the oldest goes first.
    static var capacity: Int { 32 }
    /// How long a value is handed out: one request's steps, never what storage becomes later.
    static var lifetime: Duration { .seconds(2) }

    /// The value found for `name`, if it is recent.
    func value(for name: String) -> Value? {
        guard let entry = entries.last(where: { $0.name == name }), ContinuousClock.now - entry.at < Self.lifetime
        else { return nil }
        return entry.value
    }

    /// The value found for `name`, once: it is forgotten as it is handed out.
    mutating func take(_ name: String) -> Value? {
        let value = value(for: name)
        forget { $0 == name }
        return value
    }

    /// Remembers `value` for `name`, in place of what was found before.
    mutating func remember(_ value: Value, for name: String) {
        forget { $0 == name }
        entries.append((name, value, .now))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// Forgets every name `matches` picks.
    mutating func forget(where matches: (String) -> Bool) {
        entries.removeAll { matches($0.name) }
    }
}
