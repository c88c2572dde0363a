import Foundation
import JarvisCore

/// Replaces a JSON file through ``AtomicFile`` only if nobody changed it since it was read.
///
/// Just before the rename it reads the file again and compares it with what the change was
/// made from; if another program changed it meanwhile, the temporary file is removed and
/// nothing is written. (Another program could still write in the instant between that check
/// and the rename; POSIX offers no compare-and-rename.)
enum CheckedFileWrite {
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
        try AtomicFile.replace(target.path, with: bytes, mode: mode_t(original.permissions & 0o7777)) {
            () throws(JarvisError) in
            beforeCommit?()
            guard try Snapshot.read(target) == original else {
                throw JarvisError(
                    .conflict,
                    "\(target.lastPathComponent) changed on disk while Jarvis was writing it; nothing was written; read it again and retry"
                )
            }
        }
    }
}
