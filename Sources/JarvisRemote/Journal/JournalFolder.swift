import Foundation
import JarvisCore
import JarvisSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal's folder, held by a descriptor: every file in it is opened, checked, written
/// and renamed relative to that descriptor, never through a link, so a folder or file swapped
/// for a link while the agent runs is never written through. A plain value over a descriptor
/// that its ``JournalFile`` owns and closes.
struct JournalFolder {
    /// The folder's descriptor (`O_DIRECTORY`, opened without following a link).
    let descriptor: Int32
    /// The folder's path, for messages.
    let path: String

    /// What reading a file found.
    enum Read {
        /// Nothing by that name.
        case missing
        /// A file that must not be trusted, and why.
        case refused(String)
        /// The file's bytes.
        case read([UInt8])
    }

    /// What appending did.
    enum Append {
        case written
        /// The file must not be trusted (a link, another owner, a loosened mode): nothing was written.
        case refused(String)
        /// The write failed (a full disk): nothing may be assumed about the end of the file.
        case failed
    }

    /// Opens the folder at `path`, which must be this user's private folder (0700), not a link.
    static func open(_ path: String) -> JournalFolder? {
        let descriptor = openFolder(path)
        guard descriptor >= 0 else { return nil }
        let folder = JournalFolder(descriptor: descriptor, path: path)
        guard folder.folderProblem() == nil else {
            closeDescriptor(descriptor)
            return nil
        }
        return folder
    }

    /// Closes the folder's descriptor.
    func close() {
        Self.closeDescriptor(descriptor)
    }

    /// Why the folder itself is no longer this user's private folder; nil when it is.
    func folderProblem() -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return "its folder can no longer be examined" }
        guard UInt32(info.st_uid) == PrivatePath.userID else {
            return "its folder \(path) now belongs to another user (uid \(info.st_uid))"
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { return "its folder \(path) is now open to others (mode \(String(mode, radix: 8)))" }
        return nil
    }

    /// Why the entry `name` must not be trusted, looked at without following a link; nil when it
    /// is missing or a private regular file of this user.
    func problem(of name: String) -> String? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return Self.problem(info)
    }

    /// Why a file with this status must not be trusted; nil when it may be.
    static func problem(_ info: stat) -> String? {
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        if type == UInt32(S_IFLNK) { return "it is a symbolic link" }
        guard type == UInt32(S_IFREG) else { return "it is not a regular file" }
        guard UInt32(info.st_uid) == PrivatePath.userID else { return "it belongs to another user (uid \(info.st_uid))" }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { return "others may read or write it (mode \(String(mode, radix: 8)))" }
        guard info.st_nlink <= 1 else { return "it has \(info.st_nlink) names (hard links)" }
        return nil
    }

    /// Reads `name`, checked on the open descriptor, up to `limit` bytes.
    func read(_ name: String, limit: Int) -> Read {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return .missing }
            return .refused(problem(of: name) ?? "it cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { Self.closeDescriptor(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { return .refused("it cannot be examined") }
        if let reason = Self.problem(info) { return .refused(reason) }
        guard Int(info.st_size) <= limit else {
            return .refused("it holds \(info.st_size) bytes, more than the journal's budget of \(limit)")
        }
        let bytes = SystemCall.read(file, upTo: Int(info.st_size))
        return .read(bytes)
    }

    /// Appends to `name`, checked on the open descriptor first.
    func append(_ bytes: [UInt8], to name: String) -> Append {
        let file = openat(descriptor, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if let reason = problem(of: name) { return .refused(reason) }
            return .failed
        }
        defer { Self.closeDescriptor(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { return .failed }
        if let reason = Self.problem(info) { return .refused(reason) }
        do {
            try AtomicFile.writeAll(bytes, to: file, name: path + "/" + name)
            return .written
        } catch {
            return .failed
        }
    }

    /// Replaces `name` with `bytes`: a new 0600 file beside it, flushed, then renamed over it.
    func replace(_ name: String, with bytes: [UInt8]) throws(JarvisError) {
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw AtomicFile.failure("open", path + "/" + temporary) }
        do throws(JarvisError) {
            try AtomicFile.writeAll(bytes, to: file, name: path + "/" + temporary)
            guard fsync(file) == 0 else { throw AtomicFile.failure("fsync", path + "/" + temporary) }
        } catch {
            Self.closeDescriptor(file)
            unlinkat(descriptor, temporary, 0)
            throw error
        }
        Self.closeDescriptor(file)
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let failure = AtomicFile.failure("rename", path + "/" + name)
            unlinkat(descriptor, temporary, 0)
            throw failure
        }
        _ = fsync(descriptor)
    }

    /// Renames `name` out of the way (a link is renamed, never followed); returns the problem
    /// to report.
    func setAside(_ name: String, path shown: String, because reason: String) -> String {
        let stamp = DateText.format(Date()).replacingOccurrences(of: ":", with: "-")
        let aside = "\(name).set-aside-\(stamp)"
        if renameat(descriptor, name, descriptor, aside) == 0 {
            return "the journal \(shown) was set aside as \(shown).set-aside-\(stamp): \(reason)"
        }
        unlinkat(descriptor, name, 0)
        return "the journal \(shown) was removed: \(reason), and it could not be renamed"
    }

    /// Opens (or creates) the lock file `name`, never through a link.
    func openLock(_ name: String) -> Int32 {
        openat(descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }

    static func closeDescriptor(_ descriptor: Int32) {
        _ = closeFile(descriptor)
    }
}

// Outside the type, whose own `close()` would hide the C library's.
private func closeFile(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

private func openFolder(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
}
