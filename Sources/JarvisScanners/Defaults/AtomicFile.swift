import Foundation
import JarvisCore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file's contents all at once: a reader sees the old file or the new one, never
/// half of either, even if the process dies mid-write.
///
/// The new bytes go to a temporary file in the same folder (so `rename` stays on one file
/// system), which is given the permissions asked for, flushed with `fsync`, and renamed over
/// the target; the folder is flushed too so the rename itself survives a crash.
enum AtomicFile {
    /// Writes `data` to `url` atomically with the given permission bits.
    /// - Throws: ``JarvisError`` `.storage` with the failing call and `errno`'s description.
    static func write(_ data: Data, to url: URL, permissions: UInt16) throws(JarvisError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).jarvis-tmp")
        let name = url.lastPathComponent
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create a temporary file beside", name) }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        do {
            defer { close(descriptor) }
            // fchmod, not the mode given to open, so the umask cannot narrow the permissions.
            guard fchmod(descriptor, mode_t(permissions)) == 0 else { throw failure("set permissions of", name) }
            let complete = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
            guard complete else { throw failure("write", name) }
            guard fsync(descriptor) == 0 else { throw failure("flush", name) }
        }
        guard rename(temporary.path, url.path) == 0 else { throw failure("replace", name) }
        renamed = true
        let folderDescriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func failure(_ action: String, _ name: String) -> JarvisError {
        let code = errno
        return JarvisError(.storage, "could not \(action) '\(name)': \(String(cString: strerror(code))) (errno \(code)); nothing was changed")
    }
}

/// POSIX `write`, named apart from ``AtomicFile/write(_:to:permissions:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, bytes, count)
    #elseif canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Musl.write(descriptor, bytes, count)
    #endif
}

/// What identifies one version of a file for caches: modification time, size, inode and
/// device, from a single `stat` (cheaper than `FileManager.attributesOfItem`, which also opens
/// the file and lists its extended attributes on Linux).
struct FileStamp: Hashable, Sendable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int64
    var inode: UInt64
    var device: UInt64

    /// The stamp of the file at `path` (following links), or nil when it does not exist.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return FileStamp(
            seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec), size: Int64(info.st_size),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}
