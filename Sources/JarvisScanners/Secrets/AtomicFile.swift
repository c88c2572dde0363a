import Foundation
import JarvisCore

/// Replaces a file so that a reader sees the old bytes or the new, never a mix, and a crash
/// never leaves a half-written secret: temporary file in the same folder, flushed to disk,
/// renamed over the target, then the folder flushed too.
///
/// The POSIX calls used here (`open`, `fsync`, `fchmod`, `rename`…) have the same Swift
/// signatures on Glibc and Darwin, so this needs no platform shim.
enum AtomicFile {
    /// Writes `bytes` to `path`, keeping the old file's mode and owner (0600 for a new file).
    static func replace(_ path: String, in folder: String, with bytes: [UInt8]) throws(JarvisError) {
        var mode: mode_t = 0o600
        var owner: (uid_t, gid_t)?
        var old = stat()
        if lstat(path, &old) == 0 {
            guard (old.st_mode & S_IFMT) == S_IFREG else {
                throw JarvisError(.readOnly, "\(path) is not a regular file; it cannot be replaced")
            }
            mode = old.st_mode & 0o7777
            owner = (old.st_uid, old.st_gid)
        }
        let temporary = folder + "/.jarvis-\(UUID().uuidString.prefix(12)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw failure("cannot create a temporary file in \(folder)")
        }
        var closed = false
        do throws(JarvisError) {
            defer { if !closed { close(descriptor) } }
            try writeAll(bytes, to: descriptor, path: temporary)
            if let owner, owner != (getuid(), getgid()) {
                // Only root may give a file away; for anyone else the file keeps its writer.
                _ = fchown(descriptor, owner.0, owner.1)
            }
            guard fchmod(descriptor, mode) == 0 else { throw failure("cannot set the permissions of \(temporary)") }
            guard fsync(descriptor) == 0 else { throw failure("cannot flush \(temporary) to disk") }
            closed = true
            guard close(descriptor) == 0 else { throw failure("cannot close \(temporary)") }
            guard rename(temporary, path) == 0 else { throw failure("cannot rename the new \(path) into place") }
        } catch {
            unlink(temporary)
            throw error
        }
        syncFolder(folder)
    }

    /// Flushes a folder's entries, so a rename or unlink survives a crash. Best effort.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(JarvisError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write \(path)")
            }
            offset += written
        }
    }

    private static func failure(_ action: String) -> JarvisError {
        JarvisError(.storage, "\(action): \(String(cString: strerror(errno)))")
    }
}
