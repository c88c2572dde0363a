import Foundation

/// The last events the agent emitted, so that a client that lost its connection can resume
/// after the last sequence number it saw instead of listing everything again.
///
/// Bounded: past `capacity` the oldest events are dropped, and a client asking for them is
/// told to list again. Not thread-safe; its owner holds it under a lock.
package struct ChangeBacklog: Sendable {
    /// How many events are kept.
    package let capacity: Int
    /// The sequence number of the last event appended; 0 before the first.
    package private(set) var latest: Int64 = 0
    private var events: [ChangeEvent] = []
    private var head = 0

    package init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// Stamps the changes with the next sequence number and keeps the event.
    package mutating func append(scanner: String, container: ContainerInfo, changes: [RawChange], time: Date)
        -> ChangeEvent
    {
        latest += 1
        let event = ChangeEvent(sequence: latest, time: time, scanner: scanner, container: container, changes: changes)
        if events.count < capacity {
            events.append(event)
        } else {
            events[head] = event
            head = (head + 1) % capacity
        }
        return event
    }

    /// The events after `since`, oldest first; nil when some of them were already dropped or
    /// `since` is from the future (another run of the agent), so the client must list again.
    package func events(after since: Int64) -> [ChangeEvent]? {
        guard since >= 0, since <= latest else { return nil }
        let oldest = latest - Int64(events.count) + 1
        guard since + 1 >= oldest else { return nil }
        let ordered = Array(events[head...] + events[..<head])
        return Array(ordered.suffix(Int(latest - since)))
    }
}
