import Foundation

/// The last events the agent emitted, so that a client that lost its connection can resume
/// after the last sequence number it saw instead of listing everything again.
///
/// Bounded twice: past `capacity` events or past `byteBudget` bytes of keys and values the
/// oldest events are dropped, and a client asking for them is told to list again. An event
/// larger than the whole budget is not kept at all. Not thread-safe; its owner holds it under
/// a lock.
package struct ChangeBacklog: Sendable {
    /// How many events are kept.
    package let capacity: Int
    /// How many bytes of keys and values (``ChangeEvent/weight``) the kept events may hold.
    package let byteBudget: Int
    /// The sequence number of the last event appended; 0 before the first.
    package private(set) var latest: Int64 = 0
    /// What the kept events weigh, in bytes.
    package private(set) var heldBytes = 0
    /// Kept events from `head` on, oldest first (the slots before `head` are spent).
    private var events: [ChangeEvent] = []
    private var head = 0

    /// - Parameters:
    ///   - capacity: the most events kept.
    ///   - byteBudget: the most bytes of keys and values kept (16 MiB by default).
    package init(capacity: Int = 1024, byteBudget: Int = 16 << 20) {
        self.capacity = max(1, capacity)
        self.byteBudget = max(0, byteBudget)
    }

    /// How many events are kept.
    package var count: Int { events.count - head }

    /// Stamps the changes with the next sequence number and keeps the event.
    /// - Parameters:
    ///   - state: the container became unreadable, or readable again.
    ///   - keeping: what of the changes the backlog keeps (a secret scanner's are kept
    ///     masked); the event returned, for delivery now, has the changes as given.
    package mutating func append(
        scanner: String, container: ContainerInfo, changes: [RawChange], state: ContainerStateChange? = nil,
        time: Date, keeping: ([RawChange]) -> [RawChange] = { $0 }
    ) -> ChangeEvent {
        latest += 1
        let event = ChangeEvent(
            sequence: latest, time: time, scanner: scanner, container: container, changes: changes, state: state)
        var kept = event
        kept.changes = keeping(changes)
        let weight = kept.weight
        guard weight <= byteBudget else {
            // Too large to keep: everything before it goes too, so a resume never skips it.
            events = []
            head = 0
            heldBytes = 0
            return event
        }
        events.append(kept)
        heldBytes += weight
        while count > capacity || heldBytes > byteBudget {
            heldBytes -= events[head].weight
            head += 1
        }
        if head > 64 && head * 2 > events.count {
            events.removeFirst(head)
            head = 0
        }
        return event
    }

    /// The events after `since`, oldest first; nil when some of them were already dropped or
    /// `since` is from the future (another run of the agent), so the client must list again.
    package func events(after since: Int64) -> [ChangeEvent]? {
        guard since >= 0, since <= latest else { return nil }
        let oldest = latest - Int64(count) + 1
        guard since + 1 >= oldest else { return nil }
        return Array(events[head...].suffix(Int(latest - since)))
    }
}

extension ChangeEvent {
    /// What the event holds in keys and values, in bytes (an estimate of memory: text and data
    /// by their bytes, numbers, dates and booleans at 8, each entry with a fixed overhead).
    package var weight: Int {
        changes.reduce(64 + scanner.utf8.count + container.name.utf8.count + (state?.weight ?? 0)) { total, change in
            total + 32 + change.key.utf8.count + (change.old?.value.weight ?? 0) + (change.new?.value.weight ?? 0)
                + (change.sealed?.weight ?? 0)
        }
    }
}

extension PreferenceValue {
    /// The bytes the value holds, roughly as memory counts them.
    package var weight: Int {
        switch self {
        case .string(let text): 16 + text.utf8.count
        case .data(let data): 16 + data.count
        case .integer, .real, .boolean, .date: 8
        case .bigNumber: 32
        case .array(let values): values.reduce(16) { $0 + 8 + $1.weight }
        case .dictionary(let values): values.reduce(16) { $0 + 16 + $1.key.utf8.count + $1.value.weight }
        }
    }
}
