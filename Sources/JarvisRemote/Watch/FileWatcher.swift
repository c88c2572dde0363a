import Dispatch
import JarvisCore

/// Tells which files of some folders changed, with the platform's own notifications
/// (inotify on Linux, kqueue vnode sources on Apple platforms); no polling.
///
/// Folders are watched rather than files because editors and `UserDefaults` replace a file by
/// an atomic rename, which gives it a new inode. Events are delivered on the queue given at
/// creation, as `(folder, name)`; `name` is nil when the platform only says that something in
/// the folder changed. All methods must be called on that queue.
///
/// `@unchecked Sendable`: the watcher is confined to its queue (the rule above), not guarded
/// by a lock; the engine only carries the reference in its locked state between calls there.
final class FileWatcher: @unchecked Sendable {
    /// Receives `(folder, file name or nil)` on the watcher's queue.
    typealias Handler = @Sendable (_ folder: String, _ name: String?) -> Void

    private let backend: FileWatcherBackend

    /// Creates a watcher that watches nothing yet.
    /// - Throws: ``JarvisError`` `.unavailable` when the platform refuses (e.g. inotify limits).
    init(queue: DispatchQueue, handler: @escaping Handler) throws(JarvisError) {
        backend = try FileWatcherBackend(queue: queue, handler: handler)
    }

    /// Starts watching a folder; watching it twice is harmless.
    /// - Throws: ``JarvisError`` `.storage` when the folder cannot be watched (missing, no permission).
    func watch(folder: String) throws(JarvisError) {
        try backend.watch(folder: folder)
    }

    /// Stops watching a folder.
    func unwatch(folder: String) {
        backend.unwatch(folder: folder)
    }

    /// Stops everything and releases the descriptors. The watcher is unusable afterwards.
    func cancel() {
        backend.cancel()
    }
}
