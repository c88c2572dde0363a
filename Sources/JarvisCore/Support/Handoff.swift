/// Values handed from one thread to others under a lock, each taken once: the lock type for
/// values that are not `Sendable` (a parsed property list's `Any`), as `Synchronization.Mutex`
/// is. They go in and come out only as `sending`, so the compiler checks that the thread that
/// hands them over keeps no reference to them and that each taker owns what it takes.
package final class Handoff<Value> {
    private let slots: Locked<[Value?]>

    /// A handoff of `values`, taken by their position.
    package init(_ values: sending [Value]) {
        slots = Locked(values.map { $0 })
    }

    /// The value at `position`, once; nil when it was taken already or there is none.
    package func take(_ position: Int) -> sending Value? {
        slots.withLock { slots in
            guard slots.indices.contains(position) else { return nil }
            let value = slots[position]
            slots[position] = nil
            return value
        }
    }
}

// The lock guards the values, which move only as `sending`: the box may cross threads
// whatever they are.
extension Handoff: @unchecked Sendable {}
