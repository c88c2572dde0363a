import JarvisCore

extension ChangeCheckpoint {
    /// The moments passed so far.
    private static let moments = Locked<UInt64>(0)

    /// Passes a new checkpoint, which stands for the requests read before this call: a readiness
    /// loop calls it between reading a turn's requests and answering them, and passes what it
    /// returns with those requests only. Reads nothing itself: each watch asked past it reads its
    /// own pending notifications, once (see ``FolderChanges/generation(_:)``).
    package static func pass() -> ChangeCheckpoint {
        let moment = moments.withLock { last in
            last &+= 1
            return last
        }
        return ChangeCheckpoint(moment: moment)
    }

    /// The last moment passed: a reading that starts now comes after it.
    static var lastMoment: UInt64 { moments.current }
}
