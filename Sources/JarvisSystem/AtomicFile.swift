import Foundation
import JarvisCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replaces a file so that a reader sees the old bytes or the new, never a mix, and a crash
/// never leaves half a file: the one way every file-backed scanner (plist suites, JSON files,
/// secret files) writes.
///
/// The new bytes go to a temporary file in the same folder (so `rename` stays on one file
/// system), which gets the old file's mode and owner (or the mode asked for), is flushed with
/// `fsync` and renamed over the target; the folder is flushed too so the rename survives a
/// crash. A link is followed: the file it points to is replaced and the link kept.
package enum AtomicFile {
    /// Writes `bytes` in place of the file at `path`.
    /// - Parameter mode: the permission bits; by default the old file's, or 0600 for a new file.
    /// - Throws: ``JarvisError`` `.storage` naming the failing step and `errno`'s text.
    package static func replace(_ path: String, with bytes: [UInt8], mode: mode_t? = nil) throws(JarvisError) {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let temporary = try writeTemporary(bytes, replacing: target, mode: mode).path
        guard rename(temporary, target) == 0 else {
            let error = failure("replace", (target as NSString).lastPathComponent)
            unlink(temporary)
            throw error
        }
        syncFolder((target as NSString).deletingLastPathComponent)
    }

    /// Writes `bytes` to a new, flushed temporary file beside `target` (a resolved path),
    /// with `target`'s mode and owner, or `mode` when given, or 0600 for a new file.
    /// - Returns: the temporary file's path, which the caller renames or removes, and its
    ///   stamp (which stays the file's stamp once it is renamed into place).
    package static func writeTemporary(_ bytes: [UInt8], replacing target: String, mode: mode_t? = nil) throws(JarvisError)
        -> (path: String, stamp: FileStamp?)
    {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var newMode: mode_t = mode ?? 0o600
        var owner: (uid_t, gid_t)?
        var old = stat()
        if lstat(target, &old) == 0 {
            guard (old.st_mode & S_IFMT) == S_IFREG else {
                throw JarvisError(.readOnly, "'\(name)' is not a regular file; it cannot be replaced")
            }
            if mode == nil { newMode = old.st_mode & 0o7777 }
            owner = (old.st_uid, old.st_gid)
        }
        let temporary = folder + "/.\(name).\(UUID().uuidString.prefix(12)).jarvis-tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create a temporary file beside", name) }
        defer { close(descriptor) }
        do throws(JarvisError) {
            try writeAll(bytes, to: descriptor, name: name)
            if let owner, owner != (getuid(), getgid()) {
                // Only root may give a file away; for anyone else the file keeps its writer.
                _ = fchown(descriptor, owner.0, owner.1)
            }
            // fchmod, not the mode given to open, so the umask cannot narrow the permissions.
            guard fchmod(descriptor, newMode) == 0 else { throw failure("set the permissions of", name) }
            guard fsync(descriptor) == 0 else { throw failure("flush", name) }
        } catch {
            unlink(temporary)
            throw error
        }
        return (temporary, FileStamp.of(descriptor: descriptor))
    }

    /// Flushes a folder's entries, so a rename or unlink survives a crash. Best effort.
    package static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(JarvisError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                SystemCall.write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("write", name)
            }
            offset += written
        }
    }

    /// The error for a failed system call on a file, from `errno`. Past reading (opening,
    /// reading), it says that nothing was changed: a write stops before it touches the file.
    package static func failure(_ action: String, _ name: String) -> JarvisError {
        let code = errno
        let reading = action == "open" || action == "read"
        return JarvisError(
            .storage,
            "could not \(action) '\(name)': \(String(cString: strerror(code))) (errno \(code))"
                + (reading ? "" : "; nothing was changed"))
    }
}
