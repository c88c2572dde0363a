import Foundation
import JarvisCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file so that readers see either the old contents or the new, never a mix:
/// a temporary file in the same folder, written and flushed to disk, given the old file's
/// permissions, then renamed over it.
///
/// Just before the rename it reads the file again and compares it with what the change was
/// made from; if another program changed it meanwhile, the temporary file is removed and
/// nothing is written. (Another program could still write in the instant between that check
/// and the rename; POSIX offers no compare-and-rename.)
enum AtomicFileWriter {
    /// What a file was when it was read: compared again just before it is replaced.
    struct Snapshot: Equatable {
        var bytes: [UInt8]
        var size: Int
        var modified: Date?
        var permissions: Int

        /// Reads a file and its metadata.
        static func read(_ url: URL) throws(JarvisError) -> Snapshot {
            let attributes: [FileAttributeKey: Any]
            let data: Data
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                data = try Data(contentsOf: url)
            } catch {
                throw JarvisError(.storage, "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
            }
            return Snapshot(
                bytes: [UInt8](data), size: (attributes[.size] as? NSNumber)?.intValue ?? data.count,
                modified: attributes[.modificationDate] as? Date,
                permissions: (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o644)
        }
    }

    /// Writes `bytes` in place of the file at `url`, which must still be `original`.
    /// - Parameter beforeCommit: runs after the temporary file is ready and before the final
    ///   check; tests use it to change the file at the worst moment.
    /// - Throws: ``JarvisError`` `.conflict` when the file changed since `original` was read
    ///   (nothing is written), `.storage` when the folder cannot be written.
    static func replace(
        _ url: URL,
        with bytes: [UInt8],
        original: Snapshot,
        beforeCommit: (() -> Void)? = nil
    ) throws(JarvisError) {
        let target = url.resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent()
        var template = Array(folder.appendingPathComponent(".\(target.lastPathComponent).jarvis-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw JarvisError(.storage, "cannot create a temporary file in \(folder.lastPathComponent): \(errorText())")
        }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor)
            guard fchmod(descriptor, mode_t(original.permissions & 0o7777)) == 0 else {
                throw JarvisError(.storage, "cannot give the new file the old permissions: \(errorText())")
            }
            guard fsync(descriptor) == 0 else {
                throw JarvisError(.storage, "cannot flush \(target.lastPathComponent) to disk: \(errorText())")
            }
        }
        beforeCommit?()
        let now = try Snapshot.read(target)
        guard now == original else {
            throw JarvisError(
                .conflict,
                "\(target.lastPathComponent) changed on disk while Jarvis was writing it; nothing was written; read it again and retry")
        }
        guard rename(temporary, target.path) == 0 else {
            throw JarvisError(.storage, "cannot replace \(target.lastPathComponent): \(errorText())")
        }
        committed = true
        // Make the rename itself durable; a failure here leaves the new contents in place.
        let folderDescriptor = open(folder.path, O_RDONLY)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(JarvisError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw JarvisError(.storage, "cannot write the temporary file: \(errorText())")
            }
            offset += written
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
