import Foundation

/// Every change one coalesced read of one container found (and whether it could be read), stamped with the agent's next
/// sequence number.
package struct ChangeEvent: Sendable, Hashable {
    /// Increases by one per event across the whole agent; clients resume after it.
    package var sequence: Int64
    /// When the change was seen.
    package var time: Date
    package var scanner: String
    package var container: ContainerInfo
    package var changes: [RawChange]
    /// The container became unreadable, or readable again; nil when it was read as before.
    package var state: ContainerStateChange? = nil
}
