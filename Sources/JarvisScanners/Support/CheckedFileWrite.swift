import Foundation
import JarvisCore
import JarvisSystem

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Changes one key of a file that other programs write too, without undoing their writes:
/// the one way the JSON files scanner and the plist folder store write.
///
/// The file is read once, and the change made from it. Immediately before the new file
/// replaces it, one `fstatat` checks that the file is still that version (inode, size,
/// modification time); if another program wrote it meanwhile, that version is read and the
/// change made again on top of it, or `.conflict` is thrown when that program changed the
/// very key being written. Every step works on a ``FileSlot``: relative to the descriptor of
/// the folder that holds the file, never following a link at its name. The replace itself is an
/// exchange of names where the system offers one (see ``AtomicFile/swap(_:_:)``): the file
/// that was displaced is checked too, so a write that lands in the instant between the last
/// check and the replace is caught and the change is made once more on top of it, instead of
/// being silently lost. Where no exchange exists (or the file system refuses it) a plain
/// `rename` replaces the file, and only that instant stays unguarded.
enum CheckedFileWrite {
    /// A file as read: its bytes (nil when there is no file) and its stamp.
    struct Snapshot: Equatable {
        /// The contents; nil when the file does not exist.
        var bytes: [UInt8]?
        /// Inode, size and modification time; nil when the file does not exist.
        var stamp: FileStamp?

        /// The largest file read by path (tests and tools); scanners pass their own limit.
        static let defaultLimit = 64 << 20

        /// Reads a file and its stamp through one descriptor, so both describe the same file;
        /// a regular file only, opened without blocking.
        /// - Throws: ``JarvisError`` `.storage` when it exists but cannot be read.
        static func read(_ path: String, limit: Int = defaultLimit) throws(JarvisError) -> Snapshot {
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return Snapshot(bytes: nil, stamp: nil) }
                throw AtomicFile.failure("read", (path as NSString).lastPathComponent)
            }
            defer { close(descriptor) }
            return try BoundedRead.read(descriptor, limit: limit, name: (path as NSString).lastPathComponent)
        }
    }

    /// What a write left in place: the bytes written and their file's stamp.
    struct Written {
        /// The file's contents as written.
        var bytes: [UInt8]
        /// The stamp of the file Jarvis wrote, when it was still at the name after the replace
        /// (nil when another program replaced it at once: then nothing may be cached as its).
        var stamp: FileStamp?
        /// The stamp of the version the new file replaced (nil: there was no file). The file
        /// at ``stamp`` is that version with the change applied.
        var replaced: FileStamp?
    }

    /// ``update(_:readBefore:readsContents:attempts:mode:limit:beforeCommit:change:)`` for the file at a
    /// path, resolved beneath its own folder (tests and tools).
    static func update<Key: Equatable>(
        _ url: URL,
        readBefore baseline: (stamp: FileStamp, key: Key)? = nil,
        attempts: Int = 50,
        beforeCommit: (() -> Void)? = nil,
        change: (Snapshot) throws(JarvisError) -> (bytes: [UInt8]?, key: Key)
    ) throws(JarvisError) {
        let folder = ServedFolder(url.deletingLastPathComponent())
        let slot = try folder.writableSlot(of: url.lastPathComponent, container: url.lastPathComponent)
        try update(slot, readBefore: baseline, attempts: attempts, beforeCommit: beforeCommit, change: change)
    }

    /// Applies a change to the file in `slot` and replaces it atomically, re-applying the
    /// change on top of any version another program writes meanwhile.
    /// - Parameters:
    ///   - baseline: the version the caller last read (the one it made its decision from) and
    ///     what the key held there; when the file changed since and the key with it, the
    ///     answer is `.conflict`, as for a change during the write.
    ///   - readsContents: false for a change that replaces the whole file whatever it holds:
    ///     each version is then only its stamp (one `fstatat`), its bytes never read.
    ///   - attempts: how many other programs' writes in a row to absorb before giving up.
    ///   - mode: the new file's permission bits; nil keeps the old file's (0600 for a new one).
    ///   - limit: the largest file read.
    ///   - beforeCommit: runs once the new file is ready, before the last check; tests use it
    ///     to write the file at the worst moment.
    ///   - change: makes the new bytes from a version of the file (nil bytes: nothing to
    ///     write) and says what the key being written held in that version; called again for
    ///     each version another program writes.
    /// - Returns: what was written, so the caller needs no read back; nil when nothing was.
    /// - Throws: ``JarvisError`` `.conflict` when another program changed the key itself (the
    ///   file then holds that program's version), `.storage` when the file cannot be written
    ///   or turns into something other than a regular file, or what `change` throws.
    @discardableResult
    static func update<Key: Equatable>(
        _ slot: FileSlot,
        readBefore baseline: (stamp: FileStamp, key: Key)? = nil,
        readsContents: Bool = true,
        attempts: Int = 50,
        mode: mode_t? = nil,
        limit: Int = Snapshot.defaultLimit,
        beforeCommit: (() -> Void)? = nil,
        change: (Snapshot) throws(JarvisError) -> (bytes: [UInt8]?, key: Key)
    ) throws(JarvisError) -> Written? {
        let name = slot.display
        // Whatever happens to the file, caches that trust their quiet folder must look again:
        // the kernel's note of this write is read only past the loop's next checkpoint.
        defer { slot.noteLocalWrite() }
        // The one read: `expected` is what must be in place when the new file replaces it,
        // the version the change was last made from. `key` is what the key held then.
        func version() throws(JarvisError) -> Snapshot {
            readsContents ? try slot.read(limit: limit) : Snapshot(bytes: nil, stamp: slot.stamp())
        }
        var expected = try version()
        let first = try change(expected)
        let key = first.key
        if let baseline, expected.stamp != baseline.stamp, key != baseline.key {
            throw JarvisError(
                .conflict,
                "another program changed this key in \(name) since Jarvis read it; its value was kept and nothing was written; read it again and retry"
            )
        }
        var pending = first.bytes
        func again(_ version: Snapshot) throws(JarvisError) {
            let redone = try change(version)
            guard redone.key == key else {
                throw JarvisError(
                    .conflict,
                    "another program changed this key in \(name) while Jarvis was writing it; its value was kept and nothing was written; read it again and retry"
                )
            }
            pending = redone.bytes
        }
        for _ in 0..<attempts {
            guard let bytes = pending else { return nil }
            let temporary = try slot.writeTemporary(bytes, mode: mode)
            var leftover: String? = temporary.name
            defer { if let leftover { slot.remove(leftover) } }
            beforeCommit?()
            // The one verify: a single `fstatat`, as close to the replace as it can be. Only
            // when another program wrote meanwhile is the file read again.
            guard slot.stamp() == expected.stamp else {
                let now = try version()
                try again(now)
                expected = now
                continue
            }
            if expected.stamp == nil {
                // A new file: `linkat` fails rather than replace one another program just created.
                if slot.link(from: temporary.name) {
                    slot.syncFolder()
                    return try written(slot, bytes, temporary.stamp, replacing: expected.stamp)
                }
                guard errno == EEXIST else { throw AtomicFile.failure("create", name) }
                continue
            }
            switch slot.exchange(with: temporary.name) {
            case .unsupported:
                guard slot.replace(with: temporary.name) else { throw AtomicFile.failure("replace", name) }
                leftover = nil
                slot.syncFolder()
                return try written(slot, bytes, temporary.stamp, replacing: expected.stamp)
            case .failed(let code):
                errno = code
                throw AtomicFile.failure("replace", name)
            case .swapped:
                // The temporary name now holds what was in place: if it is not the version the
                // change was made from (another program's file, or a link swapped in), it goes
                // back at once and the loop makes the change again on top of what is there.
                if slot.stamp(temporary.name) == expected.stamp {
                    slot.syncFolder()
                    return try written(slot, bytes, temporary.stamp, replacing: expected.stamp)
                }
                if slot.stamp() == temporary.stamp {
                    _ = slot.exchange(with: temporary.name)
                }
            }
        }
        throw JarvisError(
            .conflict,
            "\(name) kept changing while Jarvis was writing it (\(attempts) other writes in a row); read it again and retry"
        )
    }

    /// Checks what is at the name after the replace: the regular file Jarvis wrote.
    private static func written(
        _ slot: FileSlot, _ bytes: [UInt8], _ stamp: FileStamp?, replacing replaced: FileStamp?
    ) throws(JarvisError) -> Written {
        guard let now = slot.status(), (now.st_mode & S_IFMT) == S_IFREG else {
            throw JarvisError(
                .storage, "'\(slot.display)' was replaced by something other than a regular file right after Jarvis wrote it")
        }
        let found = FileStamp(status: now)
        // Only the file Jarvis wrote may be remembered as holding these bytes.
        return Written(bytes: bytes, stamp: found == stamp ? found : nil, replaced: replaced)
    }
}
