import Foundation
import JarvisCore

/// JSON config files in folders: each file is a container named by its path inside its folder
/// (`app.json`, `env/prod.json`), and the members of its top-level object are the keys.
///
/// ```swift
/// agent.register(.jsonFiles(in: [configFolder]))
/// ```
///
/// - A file that is not valid JSON, or whose top level is not an object, is listed with its
///   problem (and the line of a parse error) and is never written.
/// - Writes replace the file atomically (see `CheckedFileWrite`), keep its permissions, the
///   order of its keys, every number not edited as written, and its layout: pretty with two
///   spaces if it spanned several lines, one line if it was one line.
/// - A file that changes on disk between the read and the write gives `.conflict`, and
///   nothing is written.
/// - `null` values and numbers beyond 64 bits make their key read-only (see ``JSONFileValue``);
///   dates and data cannot be stored in JSON and are refused.
/// - Files are found by name and never created: create a file (`{}`) to add a container.
///   Hidden files and folders (a leading `.`) are skipped; when several folders hold the same
///   relative path, the first folder's file is the one shown.
public struct JSONFilesScanner: PreferenceScanner {
    /// The scanner id, `files` unless chosen.
    public let id: String
    /// The folders searched, in order.
    public let folders: [URL]
    /// Which files count: matched against the file name, or the relative path if it has a `/`.
    public let pattern: GlobPattern
    private let writes = Locked<Void>(())
    // Parsed files by path, kept while the file's stamp is unchanged: a listing asks for each
    // file's problem and then its entries, and every `get` reads one file.
    private let parsed = Locked<[String: (stamp: FileStamp, document: Result<JSONFileDocument, JarvisError>)]>([:])
    /// Called just before the final check of a write; tests use it to race the write.
    package var beforeCommit: (@Sendable () -> Void)?

    /// Creates a scanner over the JSON files under `folders`, recursively.
    public init(id: String = "files", folders: [URL], pattern: GlobPattern = "*.json") {
        self.id = id
        self.folders = folders
        self.pattern = pattern
    }

    /// How the scanner presents itself.
    public var info: ScannerInfo { ScannerInfo(displayName: "JSON files", isWritable: true) }

    /// Every matching file, with its problem if it cannot be read.
    public func containers() throws -> [ContainerInfo] {
        var seen: Set<String> = []
        var result: [ContainerInfo] = []
        for folder in folders {
            for name in Self.relativePaths(in: folder) where matches(name) && seen.insert(name).inserted {
                let url = folder.appendingPathComponent(name)
                switch document(at: url) {
                case .success: result.append(ContainerInfo(name))
                case .failure(let error): result.append(ContainerInfo(name, problem: error.message, isWritable: false))
                }
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    /// The file of that name, found without listing the folders; nil when there is none
    /// (files are never created).
    public func container(named name: String) throws -> ContainerInfo? {
        guard let url = locate(name) else { return nil }
        switch document(at: url) {
        case .success: return ContainerInfo(name)
        case .failure(let error): return ContainerInfo(name, problem: error.message, isWritable: false)
        }
    }

    /// The top-level keys of one file.
    public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        guard let url = locate(request.container) else { return [] }
        return try document(at: url).get().entries()
    }

    /// The parsed file, from the cache when its stamp is unchanged (an atomic replace by
    /// anyone gives a new inode, so it is never mistaken for the old file).
    private func document(at url: URL) -> Result<JSONFileDocument, JarvisError> {
        let path = url.path
        guard let stamp = FileStamp.of(path) else {
            parsed.withLock { $0[path] = nil }
            return .failure(JarvisError(.storage, "cannot read \(url.lastPathComponent): it no longer exists"))
        }
        if let cached = parsed.withLock({ $0[path] }), cached.stamp == stamp { return cached.document }
        let document: Result<JSONFileDocument, JarvisError> = Result { () throws(JarvisError) in
            try JSONFileDocument(bytes: try CheckedFileWrite.Snapshot.read(url).bytes)
        }
        parsed.withLock { $0[path] = (stamp, document) }
        return document
    }

    /// Sets or removes one top-level key and replaces the file atomically.
    public func write(_ request: WriteRequest) throws {
        try writes.withLock { (_: inout Void) throws(JarvisError) in try store(request) }
    }

    private func store(_ request: WriteRequest) throws(JarvisError) {
        guard let url = locate(request.container) else {
            throw JarvisError(
                .notFound,
                "no JSON file '\(request.container)' in \(folders.map(\.lastPathComponent).joined(separator: ", ")); create it (with {}) first"
            )
        }
        let original = try CheckedFileWrite.Snapshot.read(url)
        var document = try JSONFileDocument(bytes: original.bytes)
        switch request.change {
        case .set(let value):
            document.object[request.key] = try JSONFileValue.json(
                value, template: document.object[request.key], path: "/" + request.key)
        case .delete:
            guard document.object.removeValue(forKey: request.key) != nil else {
                throw JarvisError.noKey(request.key, in: request.container)
            }
        }
        try CheckedFileWrite.replace(url, with: document.render(), original: original, beforeCommit: beforeCommit)
    }

    /// The file for a container name, only if it is one this scanner lists.
    private func locate(_ container: String) -> URL? {
        let parts = container.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }), matches(container) else {
            return nil
        }
        for folder in folders {
            let url = folder.appendingPathComponent(container)
            let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
            // A symbolic link must not lead the scanner out of its folder.
            guard url.resolvingSymlinksInPath().standardizedFileURL.path.hasPrefix(root + "/") else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return url
            }
        }
        return nil
    }

    /// Every folder and subfolder that exists when watching starts (inotify and kqueue watch
    /// one folder at a time; a subfolder created later is seen once watching starts again).
    public func watchTargets() -> [WatchTarget] {
        var paths: [String] = []
        for folder in folders {
            let root = folder.resolvingSymlinksInPath().standardizedFileURL
            paths.append(root.path)
            let subfolders = Set(
                Self.relativePaths(in: folder).compactMap { relative -> String? in
                    let parent = (relative as NSString).deletingLastPathComponent
                    return parent.isEmpty ? nil : root.appendingPathComponent(parent).path
                })
            paths += subfolders.sorted()
        }
        return paths.map { .folder($0) }
    }

    /// The file's container when it is one this scanner lists; none for other files (such
    /// as the temporary file of an atomic write), so they cause no reads.
    public func containers(changedAt path: String) -> [String]? {
        let changed = URL(fileURLWithPath: path).standardizedFileURL.path
        for folder in folders {
            let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
            guard changed.hasPrefix(root + "/") else { continue }
            let relative = String(changed.dropFirst(root.count + 1))
            let hidden = relative.split(separator: "/").contains { $0.hasPrefix(".") }
            return !hidden && matches(relative) ? [relative] : []
        }
        return nil
    }

    private func matches(_ relativePath: String) -> Bool {
        if pattern.description.contains("/") { return pattern.matches(relativePath) }
        return pattern.matches(String(relativePath.split(separator: "/").last ?? ""))
    }

    private static func relativePaths(in folder: URL) -> [String] {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var result: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.resolvingSymlinksInPath().standardizedFileURL.path
            guard path.hasPrefix(root + "/") else { continue }
            result.append(String(path.dropFirst(root.count + 1)))
        }
        return result
    }
}

extension PreferenceScanner where Self == JSONFilesScanner {
    /// The JSON files under `folders` (recursively) whose name matches `pattern`.
    ///
    /// ```swift
    /// agent.register(.jsonFiles(in: [URL(fileURLWithPath: "config")]))
    /// ```
    public static func jsonFiles(in folders: [URL], pattern: GlobPattern = "*.json", id: String = "files")
        -> JSONFilesScanner
    {
        JSONFilesScanner(id: id, folders: folders, pattern: pattern)
    }
}
