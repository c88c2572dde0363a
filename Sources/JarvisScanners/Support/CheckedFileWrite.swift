import Foundation
import JarvisCore

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
/// The change is made from the file as read. Immediately before the new file replaces it,
/// the file is read again (its inode, size, modification time and bytes); if another program
/// wrote it meanwhile, the change is made again on top of that version, or `.conflict` is
/// thrown when that program changed the very key being written. The replace itself is an
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

        /// Reads a file and its stamp through one descriptor, so both describe the same file.
        /// - Throws: ``JarvisError`` `.storage` when it exists but cannot be read.
        static func read(_ path: String) throws(JarvisError) -> Snapshot {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return Snapshot(bytes: nil, stamp: nil) }
                throw AtomicFile.failure("read", (path as NSString).lastPathComponent)
            }
            defer { close(descriptor) }
            let stamp = FileStamp.of(descriptor: descriptor)
            var bytes = [UInt8](repeating: 0, count: max(Int(stamp?.size ?? 0), 0) + 1)
            var count = 0
            while true {
                if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
                let got = bytes.withUnsafeMutableBytes { buffer in
                    SystemCall.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
                }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFile.failure("read", (path as NSString).lastPathComponent)
                }
                if got == 0 { break }
                count += got
            }
            bytes.removeSubrange(count...)
            return Snapshot(bytes: bytes, stamp: stamp)
        }
    }

    /// Applies a change to the file at `url` and replaces it atomically, re-applying the
    /// change on top of any version another program writes meanwhile.
    /// - Parameters:
    ///   - baseline: the version the caller last read (the one it made its decision from) and
    ///     what the key held there; when the file changed since and the key with it, the
    ///     answer is `.conflict`, as for a change during the write.
    ///   - attempts: how many other programs' writes in a row to absorb before giving up.
    ///   - beforeCommit: runs once the new file is ready, before the last check; tests use it
    ///     to write the file at the worst moment.
    ///   - change: makes the new bytes from a version of the file (nil bytes: nothing to
    ///     write) and says what the key being written held in that version; called again for
    ///     each version another program writes.
    /// - Throws: ``JarvisError`` `.conflict` when another program changed the key itself (the
    ///   file then holds that program's version), `.storage` when the file cannot be written,
    ///   or what `change` throws.
    static func update<Key: Equatable>(
        _ url: URL,
        readBefore baseline: (stamp: FileStamp, key: Key)? = nil,
        attempts: Int = 50,
        beforeCommit: (() -> Void)? = nil,
        change: (Snapshot) throws(JarvisError) -> (bytes: [UInt8]?, key: Key)
    ) throws(JarvisError) {
        let target = url.resolvingSymlinksInPath().path
        let name = (target as NSString).lastPathComponent
        let folder = (target as NSString).deletingLastPathComponent
        // `expected` is what must be in place when the new file replaces it: the version the
        // change was last made from. `key` is what the key held when Jarvis first read it.
        var expected = try Snapshot.read(target)
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
            guard let bytes = pending else { return }
            let temporary = try AtomicFile.writeTemporary(bytes, replacing: target)
            var leftover: String? = temporary.path
            defer { if let leftover { unlink(leftover) } }
            beforeCommit?()
            let now = try Snapshot.read(target)
            guard now == expected else {
                try again(now)
                expected = now
                continue
            }
            if expected.bytes == nil {
                // A new file: `link` fails rather than replace one another program just created.
                if link(temporary.path, target) == 0 {
                    AtomicFile.syncFolder(folder)
                    return
                }
                guard errno == EEXIST else { throw AtomicFile.failure("create", name) }
                continue
            }
            // The last look, a single `stat`, as close to the replace as it can be.
            guard FileStamp.of(target) == expected.stamp else { continue }
            switch AtomicFile.swap(temporary.path, target) {
            case .unsupported:
                guard rename(temporary.path, target) == 0 else { throw AtomicFile.failure("replace", name) }
                leftover = nil
                AtomicFile.syncFolder(folder)
                return
            case .failed(let code):
                errno = code
                throw AtomicFile.failure("replace", name)
            case .swapped:
                // The temporary name now holds the file that was in place: if it is not the
                // version the change was made from, another program replaced the file in the
                // instant before the exchange. Its version goes back at once (a `stat` tells
                // first, within microseconds) and the loop makes the change again on top of it.
                if FileStamp.of(temporary.path) == expected.stamp, try Snapshot.read(temporary.path) == expected {
                    AtomicFile.syncFolder(folder)
                    return
                }
                if FileStamp.of(target) == temporary.stamp {
                    _ = AtomicFile.swap(temporary.path, target)
                }
            // Otherwise yet another write replaced Jarvis's version meanwhile; either way
            // the next turn reads what is in place and makes the change on top of it.
            }
        }
        throw JarvisError(
            .conflict,
            "\(name) kept changing while Jarvis was writing it (\(attempts) other writes in a row); read it again and retry"
        )
    }
}
