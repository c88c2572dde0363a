import Foundation

/// What a look at the Simulator's folders found, and what it had to leave out.
public struct SimulatorScan<Item: Sendable & Hashable>: Sendable, Hashable {
    /// The devices or containers that could be read.
    public var items: [Item]
    /// What was left out, with why: a person can fix or delete those folders.
    public var skipped: [SimulatorSkip]

    /// A scan with the given results (empty by default).
    public init(items: [Item] = [], skipped: [SimulatorSkip] = []) {
        self.items = items
        self.skipped = skipped
    }
}

/// A folder of the Simulator's tree that was left out, and why.
public struct SimulatorSkip: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device or container folder (or the file inside it) that could not be used.
    public var path: String
    /// Why, in words a person can act on.
    public var reason: String

    /// A skipped folder.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
