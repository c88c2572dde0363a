/// What the agent knows, when it asks a scanner about a key, of the file system's change
/// notifications: a moment after the request arrived, past which any reading of a folder's
/// notifications stands for every request read before that moment.
///
/// The agent's readiness loop reads every ready request first, then passes a checkpoint (a
/// new moment), then answers those requests with it. A folder's watch asked with the
/// checkpoint reads its pending notifications once, the first time it is asked with this
/// checkpoint (or a later one): every change made before a request was sent has then been
/// heard, and the watch's later readings past the same checkpoint are trusted without asking
/// the kernel again (one system call per watch and turn of the loop, shared by every request of
/// the turn, where there was one per request). Each watch keeps its own reading: a checkpoint
/// another loop (or another test) passes makes no watch read. Every other caller (a request
/// on a worker thread, a host's own call into the hub) passes ``none``, which reads.
///
/// Only Jarvis's own scanners look inside; a host's scanner passes it on or ignores it.
public struct ChangeCheckpoint: Sendable, Hashable {
    /// The moment the checkpoint was passed, counting from 1; 0 for ``none``.
    package let moment: UInt64

    /// No checkpoint stands: a scanner that relies on heard changes reads them first.
    public static let none = ChangeCheckpoint(moment: 0)

    /// Whether a checkpoint was passed after the request being answered arrived.
    package var isPassed: Bool { moment != 0 }

    /// The checkpoint of moment `moment` (see `ChangeCheckpoint.pass()`).
    package init(moment: UInt64) {
        self.moment = moment
    }
}
