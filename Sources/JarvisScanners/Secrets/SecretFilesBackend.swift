import Foundation
import JarvisCore

/// A folder with one file per secret, as Docker secrets (`/run/secrets`), Kubernetes secret
/// volumes and systemd credentials (`$CREDENTIALS_DIRECTORY`) lay them out.
///
/// Container: the folder's name. Key: the file's name. Dotfiles are skipped, among them
/// the `..data` link farm of Kubernetes, whose links are followed as every file-backed
/// scanner follows links (``ServedFolder``): inside the folder for reading and writing, a
/// link that leads outside read-only, hide rules on its target too. Values are text when the
/// bytes are valid UTF-8, otherwise data. A write goes to a temporary file in the same
/// folder, is flushed to disk and renamed over the old one, keeping its permissions (a new
/// file gets 0600); a delete removes the file.
struct SecretFilesBackend: SecretBackend {
    let folder: URL
    /// The folder with the symbolic-link policy every file-backed scanner follows.
    let served: ServedFolder
    let name = "files"
    let createsContainers = false
    let unavailableReason: String? = nil

    /// - Parameter ignoresCase: whether hide rules match without case; nil asks the volume.
    init(folder: URL, ignoresCase: Bool? = nil) {
        self.folder = folder
        served = ServedFolder(folder, ignoresCase: ignoresCase)
    }

    /// The folder's resolved path.
    var location: String { served.currentRealPath }

    /// The one container's name.
    var containerName: String { folder.standardizedFileURL.lastPathComponent }

    func containers() throws -> [ContainerInfo] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return [
                ContainerInfo(containerName, problem: "the folder \(folder.path) does not exist", isWritable: false)
            ]
        }
        return [ContainerInfo(containerName, isWritable: access(folder.path, W_OK) == 0)]
    }

    func couldHave(container name: String) -> Bool { name == containerName }

    /// The folder's one container, from one `stat` and one `access`.
    func container(named name: String) throws -> ContainerInfo? {
        name == containerName ? try containers().first : nil
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        let names: [String]
        if let keys = request.keys {
            names = keys.filter { Self.isValidName($0) }.map { served.storedSpelling(of: $0) }
        } else {
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            } catch {
                throw JarvisError(.storage, "cannot list \(folder.path): \(error.localizedDescription)")
            }
        }
        let folderWritable = access(folder.path, W_OK) == 0
        return names.sorted().compactMap { name in
            // The one opening path: a regular file only, never blocking, at most the limit;
            // a dangling link, a subfolder or a FIFO is no secret.
            guard let bytes = try? served.read(name, limit: Self.maxSize).bytes else { return nil }
            return ScannedEntry(
                key: name, value: SecretBytes.value(bytes), isWritable: folderWritable && !served.leadsOutside(name))
        }
    }

    /// Replaces or removes one secret file and returns the key as written: the new file is
    /// made without reading the old one's contents (only its stamp is checked before the
    /// replace), and nothing is read back.
    func store(_ asked: WriteRequest) throws -> WriteResult {
        var request = asked
        request.key = served.storedSpelling(of: asked.key)
        guard Self.isValidName(request.key) else {
            throw JarvisError(
                .invalidParams,
                "'\(request.key)' cannot be a secret file's name: use a name without '/' that does not start with '.'")
        }
        switch request.change {
        case .set(let value):
            let (bytes, _) = try SecretBytes.bytes(value, key: request.key)
            // Never written through a link that leads outside; a link inside writes its target.
            // Owner-only whatever the file it replaces allowed.
            let slot = try served.writableSlot(of: request.key, container: "\(containerName)/\(request.key)")
            try CheckedFileWrite.update(slot, readsContents: false, mode: 0o600, limit: Self.maxSize) {
                _ throws(JarvisError) in (bytes, true)
            }
            // Written into the folder, not through a link that leads outside: writable.
            return WriteResult(entry: ScannedEntry(key: request.key, value: SecretBytes.value(bytes)))
        case .delete:
            // The entry itself: a link is removed, never the file it points to.
            let entry = try served.entry(request.key)
            guard entry.remove() else {
                if errno == ENOENT { throw JarvisError.noKey(request.key, in: containerName) }
                throw JarvisError(
                    .storage, "cannot remove \(request.key) from \(containerName): \(String(cString: strerror(errno)))")
            }
            entry.syncFolder()
            return WriteResult(entry: nil)
        }
    }

    /// A key that is a link to another file in the folder has that file's name as an alias.
    func storedNames(key: String) -> StoredNames {
        let alias = served.alias(of: served.storedSpelling(of: key))
        return StoredNames(aliases: alias.map { [$0] } ?? [], ignoresCase: served.ignoresCase)
    }

    /// The largest secret file read.
    static let maxSize = 4 << 20

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\u{0}")
            && name.utf8.count <= 255
    }
}
