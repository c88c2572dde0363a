import JarvisCore
import JarvisSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file holding a TCP token (`--token-file`), trusted as the runtime folder is: a regular
/// file (never reached through a link), owned by this user, that nobody else may read or write.
///
/// A token on the command line is visible to every local user in `ps`; a file that others may
/// read is no better, so such a file is refused with the fix rather than used.
package enum TokenFile {
    /// What is wrong with a token file.
    package enum Problem: Error, Sendable, Hashable {
        /// It cannot be opened (the errno is given), or is a symbolic link, which is never followed.
        case unreadable(Int32)
        /// Something that is not a regular file.
        case notAFile
        /// Another user's file.
        case foreignOwner(UInt32)
        /// Group or others may read or write it; the permission bits are given.
        case loosePermissions(UInt32)
        /// Longer than any token.
        case tooLarge
        /// Nothing but white space.
        case empty
    }

    /// The largest file taken as a token: a token is a line, not a document.
    package static let limit = 4096

    /// The token in `path`: its text without surrounding white space.
    /// - Throws: ``JarvisError`` `.unavailable` naming the file, what is wrong and the fix.
    package static func read(_ path: String) throws(JarvisError) -> String {
        switch load(path) {
        case .success(let token): return token
        case .failure(let problem): throw JarvisError(.unavailable, problem.message(for: path))
        }
    }

    /// The token in `path`, or what keeps it from being trusted.
    package static func load(_ path: String) -> Result<String, Problem> {
        // O_NOFOLLOW: a link is refused (ELOOP), so the checks below are about the file opened.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(errno)) }
        guard UInt32(info.st_mode) & UInt32(S_IFMT) == UInt32(S_IFREG) else { return .failure(.notAFile) }
        guard UInt32(info.st_uid) == PrivatePath.userID else { return .failure(.foreignOwner(UInt32(info.st_uid))) }
        let permissions = UInt32(info.st_mode) & 0o777
        guard permissions & 0o077 == 0 else { return .failure(.loosePermissions(permissions)) }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge) }
        let bytes = SystemCall.read(descriptor, upTo: limit + 1)
        guard bytes.count <= limit else { return .failure(.tooLarge) }
        let token = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace
        guard !token.isEmpty else { return .failure(.empty) }
        return .success(token)
    }
}

extension TokenFile.Problem {
    /// What is wrong with the token file at `path` and how to fix it.
    package func message(for path: String) -> String {
        let file = "the token file \(path)"
        switch self {
        case .unreadable(let code) where code == ELOOP:
            return "\(file) is a symbolic link, which Jarvis never follows; name the file itself"
        case .unreadable(let code):
            return "\(file) cannot be opened: \(String(cString: strerror(code)))"
        case .notAFile:
            return "\(file) is not a regular file; write the token into a file (`umask 077; printf %s TOKEN > FILE`)"
        case .foreignOwner(let owner):
            return
                "\(file) belongs to uid \(owner), not to you (uid \(PrivatePath.userID)): another user could have planted or read it; use a file of your own with mode 0600"
        case .loosePermissions(let mode):
            return
                "\(file) has mode 0\(String(mode, radix: 8)), so other users could read the token; run `chmod 600 \(path)` (and choose a new token if others may have seen it)"
        case .tooLarge:
            return "\(file) is larger than \(TokenFile.limit) bytes; it should hold only the token"
        case .empty:
            return "\(file) is empty; write the agent's token into it"
        }
    }
}

extension String {
    /// The text without white space (spaces, tabs, line ends) at either end.
    fileprivate var trimmingWhiteSpace: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
