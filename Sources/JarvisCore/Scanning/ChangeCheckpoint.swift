/// What the agent knows, when it asks a scanner about a key, of the file system's change
/// notifications: whether it read every pending one after the request arrived.
///
/// The agent's readiness loop reads every ready request first, then the notifications of
/// every folder whose changes the process hears (one read each), then answers: every change
/// made before a request was sent has then been heard, and a scanner that keeps what it read
/// from such a folder may trust what it heard without asking the kernel again (one system
/// call per turn of the loop, shared by every request of the turn, where there was one per
/// request). The loop passes ``passed`` with the requests it answers so; every other caller
/// (a request on a worker thread, a host's own call into the hub) passes ``none``.
///
/// Only Jarvis's own scanners look inside; a host's scanner passes it on or ignores it.
public struct ChangeCheckpoint: Sendable, Hashable {
    /// Whether the pending change notifications were read after the request being answered.
    package let isPassed: Bool

    /// No checkpoint stands: a scanner that relies on heard changes reads them first.
    public static let none = ChangeCheckpoint(isPassed: false)

    /// Every pending change notification was read after the request arrived.
    package static let passed = ChangeCheckpoint(isPassed: true)

    private init(isPassed: Bool) {
        self.isPassed = isPassed
    }
}
