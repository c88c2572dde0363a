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

/// Resolving a name beneath the served folder once, relative to descriptors, as the kernel's
/// `RESOLVE_BENEATH` does: each folder on the way is opened relative to the one above it
/// with `O_NOFOLLOW`, and a link is read (`readlinkat`) and resolved by Jarvis, step by step,
/// refusing any step out of the folder. Nothing is ever opened through a path a link could
/// redirect between the check and the use.
extension ServedFolder {
    /// Where a name leads, resolved once.
    enum Resolution {
        /// Inside the folder: the folder that holds the file and the file's name there (which
        /// may not exist yet).
        case inside(FileSlot)
        /// A link (here or on the way) that leads out of the folder, to this path.
        case outside(String)
        /// A folder on the way does not exist.
        case missing
    }

    /// The most links followed in one resolution, as the kernel's own limit.
    static let maxLinks = 40

    /// Resolves `relative` (a name or `a/b` path) beneath the folder.
    /// - Throws: ``JarvisError`` `.storage` when the folder cannot be opened or a chain of
    ///   links is too long.
    func resolve(_ relative: String) throws(JarvisError) -> Resolution {
        let root = open(currentRealPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw AtomicFile.failure("open the served folder", url.lastPathComponent) }
        var stack: [(descriptor: Int32, name: String)] = [(root, "")]
        defer { for entry in stack { close(entry.descriptor) } }
        var pending = Self.components(relative)
        var links = 0
        while !pending.isEmpty {
            let component = pending.removeFirst()
            if component == "." { continue }
            if component == ".." {
                guard stack.count > 1 else { return .outside(relative) }
                close(stack.removeLast().descriptor)
                continue
            }
            let current = stack[stack.count - 1].descriptor
            var info = stat()
            let exists = fstatat(current, component, &info, AT_SYMLINK_NOFOLLOW) == 0
            if exists, (info.st_mode & S_IFMT) == S_IFLNK {
                links += 1
                guard links <= Self.maxLinks else {
                    throw JarvisError(.storage, "'\(relative)' goes through more than \(Self.maxLinks) symbolic links")
                }
                guard let target = Self.readLink(current, component) else { return .missing }
                if target.hasPrefix("/") {
                    let base = currentRealPath.hasSuffix("/") ? currentRealPath : currentRealPath + "/"
                    guard target.hasPrefix(base) || target == currentRealPath else { return .outside(target) }
                    for entry in stack.dropFirst() { close(entry.descriptor) }
                    stack.removeSubrange(1...)
                    pending = Self.components(String(target.dropFirst(base.count))) + pending
                } else {
                    pending = Self.components(target) + pending
                }
                continue
            }
            if pending.isEmpty {
                // The last name: the file itself, there or not.
                guard let held = Self.duplicate(current) else { throw AtomicFile.failure("open", relative) }
                let path = (stack.dropFirst().map(\.name) + [component]).joined(separator: "/")
                return .inside(FileSlot(folder: held, name: component, display: path))
            }
            guard exists else { return .missing }
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                // Not a folder (or it changed under us): there is no such path.
                if errno == ENOTDIR || errno == ENOENT || errno == ELOOP { return .missing }
                throw AtomicFile.failure("open", relative)
            }
            stack.append((next, component))
        }
        return .missing
    }

    /// The slot to write `relative` at: inside the folder, with every link on the way resolved.
    /// - Throws: ``JarvisError`` `.readOnly` for a name that leads out of the folder,
    ///   `.notFound` when a folder on the way does not exist.
    func writableSlot(of relative: String, container: String) throws(JarvisError) -> FileSlot {
        switch try resolve(relative) {
        case .inside(let slot): return slot
        case .outside(let target):
            throw JarvisError(
                .readOnly,
                "'\(container)' is a symbolic link to \(target), outside the served folder; Jarvis never writes through such links (copy the file into the folder to edit it)"
            )
        case .missing:
            throw JarvisError(.notFound, "'\(container)' is not in the served folder '\(url.lastPathComponent)'")
        }
    }

    /// Reads a served file: resolved beneath the folder, a regular file, at most `limit` bytes,
    /// never blocking. A link that leads out of the folder is read where it leads with the same
    /// checks (such files are listed read-only).
    /// - Returns: the bytes and stamp; nil bytes when there is no such file.
    /// - Throws: ``JarvisError`` `.storage` for a FIFO, a device, a folder, a file over the
    ///   limit or a failed read.
    func read(_ relative: String, limit: Int) throws(JarvisError) -> CheckedFileWrite.Snapshot {
        switch try resolve(relative) {
        case .inside(let slot): return try slot.read(limit: limit)
        case .missing: return CheckedFileWrite.Snapshot(bytes: nil, stamp: nil)
        case .outside(let target):
            let descriptor = open(target, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return CheckedFileWrite.Snapshot(bytes: nil, stamp: nil) }
                throw AtomicFile.failure("open", relative)
            }
            defer { close(descriptor) }
            return try BoundedRead.read(descriptor, limit: limit, name: relative)
        }
    }

    /// The entry `name` at the top of the folder itself, with no link resolved: what a delete
    /// removes (a link there is removed, never what it points to).
    func entry(_ name: String) throws(JarvisError) -> FileSlot {
        let root = open(currentRealPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw AtomicFile.failure("open the served folder", url.lastPathComponent) }
        return FileSlot(folder: root, name: name, display: name)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func readLink(_ folder: Int32, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(folder, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func duplicate(_ descriptor: Int32) -> Int32? {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? copy : nil
    }
}
