/// A container that could no longer be read, or could be read again, as the change engine saw
/// it: a JSON file half-written, replaced by garbage or made unreadable, and later fixed.
package enum ContainerStateChange: Sendable, Hashable {
    /// The container cannot be read now; its last good read is kept, so its keys are not
    /// reported removed. `problem` is the one line `list` shows in its `problems`.
    case unreadable(problem: String)
    /// The container can be read again; the event's changes are what differs from the last
    /// good read.
    case readable

    /// The bytes it holds, roughly as memory counts them.
    var weight: Int {
        switch self {
        case .unreadable(let problem): 16 + problem.utf8.count
        case .readable: 0
        }
    }
}
