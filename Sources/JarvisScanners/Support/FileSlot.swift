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

/// A name inside an open folder: every operation is relative to the folder's descriptor and
/// never follows a link at the name, so a link swapped in at any moment is refused, never
/// written through.
///
/// Made by ``ServedFolder/slot(of:)``, which resolves the path once beneath the served folder.
/// Owns the descriptor; not shared between threads.
final class FileSlot {
    /// The descriptor of the folder that holds the name.
    let folder: Int32
    /// The name inside that folder.
    let name: String
    /// The path relative to the served folder, for messages.
    let display: String

    init(folder: Int32, name: String, display: String) {
        self.folder = folder
        self.name = name
        self.display = display
    }

    deinit { close(folder) }

    /// Tells the watches of the slot's folder that this process changed a file there (see
    /// `FolderChanges.noteLocalWrite(inFolder:)`).
    func noteLocalWrite() {
        var info = stat()
        guard fstat(folder, &info) == 0 else { return }
        FolderChanges.noteLocalWrite(inFolder: (UInt64(info.st_dev), UInt64(info.st_ino)))
    }

    /// What is at the name now, without following a link; nil when nothing is.
    func status(_ entry: String? = nil) -> stat? {
        var info = stat()
        guard fstatat(folder, entry ?? name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return info
    }

    /// The stamp of what is at the name (or `entry`) now, without following a link.
    func stamp(_ entry: String? = nil) -> FileStamp? {
        status(entry).map(FileStamp.init(status:))
    }

    /// Reads the file at the name: a regular file of at most `limit` bytes, opened without
    /// blocking and without following a link.
    /// - Returns: its bytes and stamp, or nil bytes when nothing is there.
    /// - Throws: ``JarvisError`` `.storage` for a link, a FIFO, a device or a folder, a file
    ///   over the limit, or a read that fails.
    func read(limit: Int) throws(JarvisError) -> CheckedFileWrite.Snapshot {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return CheckedFileWrite.Snapshot(bytes: nil, stamp: nil) }
            if errno == ELOOP {
                throw JarvisError(
                    .storage,
                    "'\(display)' became a symbolic link while Jarvis was reading it; nothing was read or written")
            }
            throw AtomicFile.failure("open", display)
        }
        defer { close(descriptor) }
        return try BoundedRead.read(descriptor, limit: limit, name: display)
    }

    /// Writes `bytes` to a new temporary file beside the name, flushed, with `mode` (or the
    /// mode of the regular file there now, or 0600).
    /// - Returns: the temporary file's name in the folder and its stamp.
    func writeTemporary(_ bytes: [UInt8], mode: mode_t?) throws(JarvisError) -> (name: String, stamp: FileStamp?) {
        var newMode: mode_t = mode ?? 0o600
        var owner: (uid_t, gid_t)?
        if let old = status() {
            guard (old.st_mode & S_IFMT) == S_IFREG else {
                throw JarvisError(.readOnly, "'\(display)' is not a regular file; Jarvis does not replace it")
            }
            if mode == nil { newMode = old.st_mode & 0o777 }
            owner = (old.st_uid, old.st_gid)
        }
        let temporary = ".\(name.prefix(80)).\(UUID().uuidString.prefix(12)).jarvis-tmp"
        let descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFile.failure("create a temporary file beside", display) }
        defer { close(descriptor) }
        do throws(JarvisError) {
            try AtomicFile.writeAll(bytes, to: descriptor, name: display)
            if let owner, owner != (getuid(), getgid()) {
                // Only root may give a file away; for anyone else the file keeps its writer.
                _ = fchown(descriptor, owner.0, owner.1)
            }
            // fchmod, not the mode given to open, so the umask cannot narrow the permissions.
            guard fchmod(descriptor, newMode) == 0 else { throw AtomicFile.failure("set the permissions of", display) }
            guard fsync(descriptor) == 0 else { throw AtomicFile.failure("flush", display) }
        } catch {
            unlinkat(folder, temporary, 0)
            throw error
        }
        return (temporary, FileStamp.of(descriptor: descriptor))
    }

    /// Exchanges the name with `other` in one step, where the system can.
    func exchange(with other: String) -> AtomicFile.SwapResult {
        AtomicFile.swap(folder, other, name)
    }

    /// Renames `other` over the name (the name's link, if one appeared, is replaced, never followed).
    func replace(with other: String) -> Bool {
        renameat(folder, other, folder, name) == 0
    }

    /// Gives `other`'s file the name too; fails with `EEXIST` when the name is taken.
    func link(from other: String) -> Bool {
        linkat(folder, other, folder, name, 0) == 0
    }

    /// Removes `entry` (the name by default) from the folder; never follows a link.
    @discardableResult
    func remove(_ entry: String? = nil) -> Bool {
        unlinkat(folder, entry ?? name, 0) == 0
    }

    /// Flushes the folder's entries, so a rename survives a crash. Best effort.
    func syncFolder() {
        _ = fsync(folder)
    }
}

/// The one way a file's bytes are read: a regular file only, its size checked before reading,
/// never more than the limit read.
enum BoundedRead {
    /// Reads an open file.
    /// - Throws: ``JarvisError`` `.storage` naming what the file is when it is not a regular
    ///   file, or its size when it is over `limit`.
    static func read(_ descriptor: Int32, limit: Int, name: String) throws(JarvisError) -> CheckedFileWrite.Snapshot {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AtomicFile.failure("read", name) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw JarvisError(
                .storage, "'\(name)' is \(kind(info.st_mode)), not a regular file; Jarvis reads only regular files")
        }
        guard Int64(info.st_size) <= Int64(limit) else {
            throw JarvisError(
                .storage,
                "'\(name)' is \(info.st_size) bytes, over the \(sizeText(limit)) Jarvis reads; it is not read")
        }
        let stamp = FileStamp(status: info)
        // The size can grow between fstat and read: read at most one byte past the limit.
        var bytes = [UInt8](repeating: 0, count: min(limit, Int(info.st_size)) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else {
                    throw JarvisError(.storage, "'\(name)' grew over the \(sizeText(limit)) Jarvis reads; it is not read")
                }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                SystemCall.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw AtomicFile.failure("read", name)
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return CheckedFileWrite.Snapshot(bytes: bytes, stamp: stamp)
    }

    /// What a file type is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
