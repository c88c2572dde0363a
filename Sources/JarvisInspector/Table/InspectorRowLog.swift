import JarvisCore

/// Which keys' rows may have changed since a face built its rows, so that a face holding
/// 100,000 rows rebuilds one row for one change, not all of them.
///
/// ``InspectorState`` notes every key whose row may read differently (a value stored, removed
/// or revealed, a change mark set or ended) and starts a new epoch when every row may differ
/// (a load, scanners or containers that changed, the agent gone). The log keeps the latest
/// ``capacity`` notes; a face further behind builds every row again.
public struct InspectorRowLog: Sendable {
    /// Where a face's rows stand in the log.
    public struct Position: Sendable, Hashable {
        /// Grows when every row may differ.
        public var epoch: Int
        /// How many notes of the epoch the rows include.
        public var count: Int
    }

    /// One key whose row may differ, and whether it came or went (rather than changed).
    public struct Note: Sendable, Hashable {
        public var address: PreferenceAddress
        /// The key was added or forgotten: a table holding it grows or shrinks.
        public var moved: Bool
    }

    /// The most notes kept.
    public static let capacity = 4096

    /// Now.
    public private(set) var position = Position(epoch: 0, count: 0)
    private var notes: [Note] = []

    /// An empty log.
    public init() {}

    mutating func note(_ address: PreferenceAddress, moved: Bool = false) {
        if notes.count == Self.capacity { notes.removeFirst(Self.capacity / 2) }
        notes.append(Note(address: address, moved: moved))
        position.count += 1
    }

    /// Every row may differ.
    mutating func restart() {
        notes = []
        position = Position(epoch: position.epoch + 1, count: 0)
    }

    /// The notes since `start`, oldest first; nil when every row must be built again (another
    /// epoch, or further back than the log keeps).
    public func notes(since start: Position) -> ArraySlice<Note>? {
        guard start.epoch == position.epoch, start.count <= position.count else { return nil }
        let behind = position.count - start.count
        guard behind <= notes.count else { return nil }
        return notes[(notes.count - behind)...]
    }
}
