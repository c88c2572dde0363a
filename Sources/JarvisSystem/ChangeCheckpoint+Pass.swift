import JarvisCore

extension ChangeCheckpoint {
    /// Reads every watched folder's pending change notifications now (one `read` each) and
    /// returns the checkpoint that stands for the requests read before this call: a readiness
    /// loop calls it between reading a turn's requests and answering them, and passes what it
    /// returns with those requests only.
    package static func pass() -> ChangeCheckpoint {
        FolderChanges.drainAll()
        return .passed
    }
}
