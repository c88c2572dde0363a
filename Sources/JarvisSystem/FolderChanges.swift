import Foundation
import JarvisCore

#if os(Linux)
    import CJarvisEpoll
    import Glibc
#endif

/// Tells whether anything in one folder may have changed since a moment, from the kernel's
/// change notifications: a cache of what the folder's files look like stays valid while the
/// ``generation(_:)`` it was taken at is still the current one, and is looked at again
/// (`lstat`) only once it is not.
///
/// Linux only (inotify), and only on the local file systems whose every change reaches
/// inotify (ext2/3/4, XFS, Btrfs, F2FS, tmpfs); ``watching(_:)`` answers nil anywhere else,
/// and the caller looks every time as before. The promise rests on two kernel facts: an
/// event is queued before the system call that caused it returns, so a change made before a
/// client asked is pending when the agent answers; and ``generation(_:)`` reads every pending
/// event before it answers (one `read` that finds nothing when the folder is quiet).
///
/// What is watched: the folder (names created, removed, renamed, written, their attributes
/// changed) and each file the caller remembers (``watchFile(named:)``), so a write through a
/// hard link in another folder is seen too. Not seen, as by every inotify user: writes
/// through a shared memory mapping. When the folder itself is removed, moved or unmounted, or
/// its path comes to name another folder (checked with one `stat` at most every 250 ms),
/// ``generation(_:)`` answers nil for good.
///
/// The agent's readiness loop has the pending changes read once per turn rather than once per
/// request: it reads every ready request first, then passes a checkpoint
/// (``ChangeCheckpoint/pass()``), then answers, passing the checkpoint with those requests down
/// to ``generation(_:)``. The first reading of a watch past a checkpoint reads its pending
/// changes, and stands for the later ones past the same checkpoint, so each request is still
/// answered after every change made before it was sent. Each watch keeps its own reading: one
/// watch's answer never depends on what other watches, or other loops, read.
package final class FolderChanges: Sendable {
    #if os(Linux)
        private let descriptor: Int32
        private let folderWatch: Int32
        private let path: String
        private let device: UInt64
        private let inode: UInt64
        /// What was heard so far; its lock is also held while the descriptor is read, so one
        /// reader at a time counts what it reads.
        private let state = Locked(Heard())

        /// What the watch has heard.
        private struct Heard {
            var count: UInt64 = 0
            var broken = false
            /// The inode each file watch is on, by watch.
            var fileWatches: [Int32: UInt64] = [:]
            var watchedInodes: Set<UInt64> = []
            var identityCheckedAt = ContinuousClock.now
            /// The last checkpoint moment passed before the pending changes were last read:
            /// a reading past a checkpoint of this moment or an earlier one stands.
            var readAt: UInt64 = 0
        }

        private static let bufferSize = 4096
        /// The most files watched beside the folder: each costs one of the user's inotify
        /// watches, a limit every program of the user shares.
        package static let maxFileWatches = 256
        private static let identityCheckInterval = Duration.milliseconds(250)
        private static let folderMask = UInt32(
            IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
                | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        private static let fileMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DONT_FOLLOW)
        /// File systems whose every change is a local one inotify hears of.
        private static let trustedFileSystems: Set<Int64> = [
            0xEF53,  // ext2, ext3, ext4
            0x5846_5342,  // XFS
            0x9123_683E,  // Btrfs
            0xF2F5_2010,  // F2FS
            0x0102_1994,  // tmpfs
        ]

        private init(
            descriptor: Int32, folderWatch: Int32, path: String, identity: (device: UInt64, inode: UInt64)
        ) {
            self.descriptor = descriptor
            self.folderWatch = folderWatch
            self.path = path
            device = identity.device
            inode = identity.inode
        }

        deinit {
            // Not removed from `live` here: its entry, now empty, is dropped by the next
            // `watching`.
            close(descriptor)
        }

        /// Every instance, for ``noteLocalWrite(inFolder:)``; an entry whose instance is gone
        /// stays until the next ``watching(_:)`` drops it.
        private static let live = Locked<[ObjectIdentifier: WeakChanges]>([:])

        private struct WeakChanges: Sendable {
            weak var changes: FolderChanges?
        }

        /// Moves on the count of every watch of the folder `identity` names (its device and
        /// inode, as `fstat` of the folder gives them): this process changed a file there, so
        /// what was known unchanged is looked at again without waiting for the kernel's note
        /// of the write. Watches of other folders keep what they know.
        package static func noteLocalWrite(inFolder identity: (device: UInt64, inode: UInt64)) {
            let all = live.withLock { $0.values.compactMap(\.changes) }
            for changes in all where changes.device == identity.device && changes.inode == identity.inode {
                changes.state.withLock { $0.count &+= 1 }
            }
        }

        /// Watches the folder at `path` (a real path, without links); nil where its changes
        /// cannot all be heard (another system, a network or user-space file system, no
        /// inotify left).
        package static func watching(_ path: String) -> FolderChanges? {
            var volume = statfs()
            guard statfs(path, &volume) == 0, trustedFileSystems.contains(Int64(volume.f_type)) else { return nil }
            guard let identity = identity(of: path) else { return nil }
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let watch = inotify_add_watch(descriptor, path, folderMask)
            // Watched, then checked: a folder swapped in between would be watched under the
            // wrong name.
            guard watch >= 0, let watched = Self.identity(of: path), watched == identity else {
                close(descriptor)
                return nil
            }
            let changes = FolderChanges(descriptor: descriptor, folderWatch: watch, path: path, identity: identity)
            live.withLock { live in
                live = live.filter { $0.value.changes != nil }
                live[ObjectIdentifier(changes)] = WeakChanges(changes: changes)
            }
            return changes
        }

        private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
            return (UInt64(status.st_dev), UInt64(status.st_ino))
        }

        /// The number of changes heard so far, after reading every pending one; nil when the
        /// folder can no longer be trusted to tell (look every time). When this watch already
        /// read its changes after `checkpoint` was passed, that reading stands for this one
        /// (no system call); otherwise it reads now, and this reading stands for the later ones
        /// past the same checkpoint.
        package func generation(_ checkpoint: ChangeCheckpoint = .none) -> UInt64? {
            state.withLock { heard in
                guard !heard.broken else { return nil }
                // Past the checkpoint, the reading made since (and its identity check) stands
                // for this one: no system call and no clock reading per request.
                if !checkpoint.isPassed || heard.readAt < checkpoint.moment {
                    // Taken before the read, so the read comes after every moment up to it.
                    let moment = ChangeCheckpoint.lastMoment
                    guard readPending(&heard) else { return nil }
                    checkIdentityWhenDue(&heard)
                    heard.readAt = max(heard.readAt, moment)
                }
                return heard.broken ? nil : heard.count
            }
        }

        /// Marks the watch broken when the folder's path has come to name another folder (or
        /// none): one `stat`, at most every 250 ms.
        private func checkIdentityWhenDue(_ heard: inout Heard) {
            let now = ContinuousClock.now
            guard now - heard.identityCheckedAt >= Self.identityCheckInterval else { return }
            heard.identityCheckedAt = now
            if Self.identity(of: path).map({ $0 != (device, inode) }) ?? true { heard.broken = true }
        }

        /// Reads every pending event, counting one change per batch; false (and broken) when
        /// the descriptor fails.
        private func readPending(_ heard: inout Heard) -> Bool {
            withUnsafeTemporaryAllocation(
                byteCount: Self.bufferSize, alignment: MemoryLayout<inotify_event>.alignment
            ) { buffer in
                while true {
                    let read = SystemCall.read(descriptor, buffer.baseAddress, buffer.count)
                    if read > 0 {
                        heard.count &+= 1
                        inspect(UnsafeRawBufferPointer(rebasing: buffer[..<min(read, buffer.count)]), &heard)
                        continue
                    }
                    if read < 0, errno == EINTR { continue }
                    if read < 0, errno == EAGAIN || errno == EWOULDBLOCK { return true }
                    heard.broken = true
                    return false
                }
            }
        }

        /// Marks the watch broken when the folder itself went.
        private func inspect(_ events: UnsafeRawBufferPointer, _ heard: inout Heard) {
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while events.count - offset >= header {
                let event = events.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED)
                if event.wd == folderWatch, event.mask & gone != 0 { heard.broken = true }
                if event.wd != folderWatch, event.mask & UInt32(IN_IGNORED) != 0,
                    let inode = heard.fileWatches.removeValue(forKey: event.wd)
                {
                    heard.watchedInodes.remove(inode)
                }
                // The kernel's length, added without trapping: a count past the buffer ends it.
                let (next, overflow) = offset.addingReportingOverflow(header + Int(event.len))
                guard !overflow else { return }
                offset = next
            }
        }

        /// Watches the file `name` in the folder, whose `lstat` found `inode`, as well, so a
        /// change made through another link to it is heard; false when it cannot be (too many
        /// watched, or the name no longer leads to that file). No system call when that file
        /// is watched already.
        package func watchFile(named name: String, inode: UInt64) -> Bool {
            state.withLock { heard in
                guard !heard.broken else { return false }
                if heard.watchedInodes.contains(inode) { return true }
                guard heard.fileWatches.count < Self.maxFileWatches else { return false }
                let full = path.hasSuffix("/") ? path + name : path + "/" + name
                let watch = inotify_add_watch(descriptor, full, Self.fileMask)
                guard watch >= 0 else { return false }
                // The name may have been given to another file between the caller's look and
                // the watch: then the watch is on that file, and the caller's look is not
                // remembered.
                var status = stat()
                guard lstat(full, &status) == 0, UInt64(status.st_ino) == inode else { return false }
                heard.fileWatches[watch] = inode
                heard.watchedInodes.insert(inode)
                return true
            }
        }
    #else
        /// Nil: only Linux tells of changes this way; the caller looks every time.
        package static func watching(_ path: String) -> FolderChanges? { nil }

        /// Never reached: there are no instances here.
        package func generation(_ checkpoint: ChangeCheckpoint = .none) -> UInt64? { nil }

        /// Never reached: there are no instances here.
        package func watchFile(named name: String, inode: UInt64) -> Bool { false }

        /// Nothing to tell here.
        package static func noteLocalWrite(inFolder identity: (device: UInt64, inode: UInt64)) {}
    #endif
}
