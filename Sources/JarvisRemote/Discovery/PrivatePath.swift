import JarvisCore
import JarvisSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks that keep discovery from trusting what another local user planted: folders and
/// files are looked at with `lstat` (a link is never followed) and must belong to this user.
///
/// The C library spells these calls alike on every platform, so only the import differs.
package enum PrivatePath {
    /// What is wrong with a folder that should be this user's own and private.
    package enum FolderProblem: Sendable, Hashable {
        /// Nothing is there.
        case missing
        /// A symbolic link (never followed: it could lead anywhere).
        case symbolicLink
        /// Something that is not a folder.
        case notAFolder
        /// Another user's folder.
        case foreignOwner(UInt32)
        /// Group or others may enter, read or write it; the permission bits are given.
        case loosePermissions(UInt32)
    }

    /// The effective user id: the one whose files a process may trust.
    package static var userID: UInt32 { UInt32(geteuid()) }

    /// Nil when `path` is a real folder owned by this user with mode 0700.
    package static func folderProblem(_ path: String) -> FolderProblem? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        if type == UInt32(S_IFLNK) { return .symbolicLink }
        guard type == UInt32(S_IFDIR) else { return .notAFolder }
        guard UInt32(info.st_uid) == userID else { return .foreignOwner(UInt32(info.st_uid)) }
        let permissions = UInt32(info.st_mode) & 0o777
        guard permissions == 0o700 else { return .loosePermissions(permissions) }
        return nil
    }

    /// Creates the last component of `path` as a 0700 folder; the parents must exist.
    /// - Returns: false when it could not be made (it may already exist: check it after).
    @discardableResult
    package static func makeFolder(_ path: String) -> Bool {
        guard mkdir(path, 0o700) == 0 else { return false }
        // The umask may have narrowed the mode; the folder is new and ours, so set it exactly.
        _ = chmod(path, 0o700)
        return true
    }

    /// A fresh private folder under `parent` whose name starts with `prefix`, made by
    /// `mkdtemp` (exclusive, mode 0700), or nil when `parent` does not allow one.
    package static func makeUniqueFolder(in parent: String, prefix: String) -> String? {
        var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { return nil }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard folderProblem(path) == nil else { return nil }
        return path
    }

    /// The bytes of a regular file owned by this user that nobody else may write, read
    /// without following a link; nil for anything else or past `limit` bytes.
    package static func readOwnedFile(_ path: String, limit: Int = 1 << 16) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFREG),
            UInt32(info.st_uid) == userID, UInt32(info.st_mode) & 0o022 == 0, Int(info.st_size) <= limit
        else { return nil }
        let bytes = SystemCall.read(descriptor, upTo: Int(info.st_size))
        return bytes
    }

    /// Whether `path` is a Unix socket owned by this user (not a link, a file or a folder).
    package static func isOwnedSocket(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFSOCK) && UInt32(info.st_uid) == userID
    }

    /// Whether anything (even a dangling link) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Replaces the file at `path` so that it is never readable by others, even for an
    /// instant: the bytes go to a new file made exclusively with mode 0600, which is then
    /// given `mode` (by default an existing file's, else 0600) and renamed into place.
    /// - Throws: ``JarvisError`` `.storage` naming the step that failed.
    package static func replaceFile(_ path: String, with bytes: [UInt8], mode: UInt32? = nil) throws(JarvisError) {
        try AtomicFile.replace(path, with: bytes, mode: mode.map { mode_t($0) })
    }

    /// Removes one directory entry that is not a folder (never recursive).
    package static func removeEntry(_ path: String) {
        _ = unlink(path)
    }

    /// Removes an empty folder (never recursive).
    package static func removeEmptyFolder(_ path: String) {
        _ = rmdir(path)
    }
}

extension PrivatePath.FolderProblem {
    /// What is wrong with `path` and how to fix it, for a runtime folder.
    package func message(for path: String) -> String {
        let own = "or set JARVIS_RUNTIME_DIR to a folder of your own with mode 0700"
        switch self {
        case .missing:
            return "the runtime folder \(path) does not exist; create it (`mkdir -m 700 \(path)`) \(own)"
        case .symbolicLink:
            return
                "the runtime folder \(path) is a symbolic link, which Jarvis never follows; remove it (`rm \(path)`) \(own)"
        case .notAFolder:
            return "the runtime folder \(path) is not a folder; remove it \(own)"
        case .foreignOwner(let owner):
            return
                "the runtime folder \(path) belongs to uid \(owner), not to you (uid \(PrivatePath.userID)): another user may have made it to intercept Jarvis; have it removed (`sudo rm -r \(path)`) \(own)"
        case .loosePermissions(let mode):
            return
                "the runtime folder \(path) has mode 0\(String(mode, radix: 8)), so other users could read or replace agent files in it; run `chmod 700 \(path)` \(own)"
        }
    }
}
