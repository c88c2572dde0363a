import Foundation
import JarvisCore
import JarvisSystem

/// JSON config files in folders: each file is a container named by its path inside its folder
/// (`app.json`, `env/prod.json`), and the members of its top-level object are the keys.
///
/// ```swift
/// agent.register(.jsonFiles(in: [configFolder]))
/// ```
///
/// - Files may hold comments, trailing commas and a byte-order mark (JSONC). A file that is
///   still not valid, or whose top level is not an object, is listed with its problem (what
///   is wrong, with its line and column) and is never written.
/// - A write changes only the bytes it touches (see `JSONFileEditor`): layout, comments,
///   escapes and untouched number literals stay as they were, and the permissions too.
/// - Writes go through `CheckedFileWrite`: another program's write between the read and the
///   replace is kept and the change made again on top of it, or `.conflict` is thrown when
///   that program changed the same key.
/// - `null` values make their key read-only; numbers of any size keep their literal (see ``JSONFileValue``);
///   dates and data cannot be stored in JSON and are refused.
/// - Files are found by name and never created: create a file (`{}`) to add a container.
///   Folders that hold config are served, dot-folders included (`.vscode/settings.json`,
///   `.devcontainer/devcontainer.json`, `.config/…`); dependency, build and version-control
///   folders are skipped (``skippedFolders``: `node_modules`, `.git`, `.build`, `build`,
///   `DerivedData`, `Pods`, …), and so is whatever an `exclude` pattern matches. A file asked for
///   by name there is refused as "not served", saying why. When several folders hold the same
///   relative path, the first folder's file is the one shown.
public struct JSONFilesScanner: PreferenceScanner {
    /// The scanner id, `files` unless chosen.
    public let id: String
    /// The folders searched, in order.
    public let folders: [URL]
    /// Which files count, by default `*.json` and `*.jsonc`: a file counts when one pattern
    /// matches its name, or its relative path for a pattern with a `/`.
    public let patterns: [GlobPattern]
    /// Files and folders left out: a pattern matches a relative path, or any one name in it.
    public let excluded: [GlobPattern]
    /// Folders never served, at any depth: dependencies, build products, version control and
    /// caches, which hold JSON that is not the project's configuration.
    public static let skippedFolders: Set<String> = [
        "node_modules", ".git", ".hg", ".svn", ".build", "build", "DerivedData", "Pods", "Carthage", ".swiftpm",
        "dist", "target", ".cache", ".venv", "venv", "__pycache__", ".next", ".nuxt", ".gradle", ".terraform",
    ]
    /// The default patterns: JSON, and JSON with comments (tsconfig-style files use `.json`).
    public static let defaultPatterns: [GlobPattern] = ["*.json", "*.jsonc"]
    /// The folders with the symbolic-link policy every file-backed scanner follows.
    let served: [ServedFolder]

    /// Every folder's resolved path, in order.
    public var location: String? { served.map(\.currentRealPath).joined(separator: "\n") }

    /// The file's resolved path: in the first folder that holds it (or would create it).
    public func location(of container: String) -> String? {
        let name = storedSpelling(of: container)
        let folder =
            served.count == 1
            ? served.first : served.first(where: { $0.place(of: name) != .missing }) ?? served.first
        return folder?.location(of: name)
    }
    private let writes = KeyedLock()
    // Parsed files by path, kept while the file's stamp is unchanged: a listing asks for each
    // file's problem and then its entries, and every `get` reads one file. Bounded in bytes:
    // the files parsed longest ago go first.
    private let parsed: Locked<ParsedCache<String, (stamp: FileStamp, document: Result<JSONFileDocument, JarvisError>)>>
    /// One parse at a time per file, so readers that arrive together share it.
    private let parsing = ParseOnce()
    /// Called just before the final check of a write; tests use it to race the write.
    package var beforeCommit: (@Sendable () -> Void)?

    /// Creates a scanner over the JSON files under `folders`, recursively.
    /// - Parameter pattern: which files count; nil for ``defaultPatterns``.
    /// - Parameter exclude: files and folders to leave out besides ``skippedFolders``.
    /// - Parameter cacheBytes: what the parsed files kept between reads may take in memory, the
    ///   files parsed longest ago going first; nil for 32 MiB.
    public init(
        id: String = "files", folders: [URL], pattern: GlobPattern? = nil, exclude: [GlobPattern] = [],
        cacheBytes: Int? = nil
    ) {
        parsed = Locked(ParsedCache(byteBudget: cacheBytes ?? ParsedCache<String, Never>.defaultBytes))
        self.excluded = exclude
        self.id = id
        self.folders = folders
        self.patterns = pattern.map { [$0] } ?? Self.defaultPatterns
        served = folders.map { ServedFolder($0) }
    }

    /// How the scanner presents itself.
    public var info: ScannerInfo { ScannerInfo(displayName: "JSON files", isWritable: true) }

    /// What JSON holds: no dates, no binary data.
    public var valueTypes: [PreferenceType]? { [.string, .integer, .real, .boolean, .array, .dictionary] }

    /// Every matching file, with its problem if it cannot be read.
    public func containers() throws -> [ContainerInfo] {
        var seen: Set<String> = []
        var result: [ContainerInfo] = []
        for folder in served {
            let names = relativePaths(in: folder).filter(matches)
            let twice = Self.heldTwice(names)
            for name in names where seen.insert(name).inserted {
                if twice.contains(name) {
                    result.append(ContainerInfo(name, problem: Self.twoSpellings(name).message, isWritable: false))
                    continue
                }
                switch document(name, in: folder) {
                case .success: result.append(ContainerInfo(name, isWritable: !folder.leadsOutside(name)))
                case .failure(let error): result.append(ContainerInfo(name, problem: error.message, isWritable: false))
                }
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    /// The file of that name, found without listing the folders; nil when there is none
    /// (files are never created).
    public func container(named asked: String) throws -> ContainerInfo? {
        let name = storedSpelling(of: asked)
        if let problem = spellingProblem(name) { return ContainerInfo(name, problem: problem.message, isWritable: false) }
        guard let (folder, stamp) = locate(name) else {
            // A file that is there but left out is named as such, not as missing.
            guard let reason = notServedReason(name) ?? served.lazy.compactMap({ self.linkReason(name, in: $0) }).first,
                matches(name),
                served.contains(where: { FileManager.default.fileExists(atPath: $0.path(of: name)) })
            else { return nil }
            return ContainerInfo(
                name,
                problem:
                    "not served: \(name): \(reason); serve its folder with --files of its own, or change --exclude",
                isWritable: false)
        }
        switch document(name, in: folder, stamp: stamp) {
        case .success: return ContainerInfo(name)
        case .failure(let error): return ContainerInfo(name, problem: error.message, isWritable: false)
        }
    }

    /// The top-level keys of one file.
    public func read(_ asked: ReadRequest) throws -> [ScannedEntry] {
        var request = asked
        request.container = storedSpelling(of: asked.container)
        if let problem = spellingProblem(request.container) { throw problem }
        guard let (folder, stamp) = locate(request.container) else { return [] }
        // The document's own array, shared with every other reader of this version.
        var entries = try document(request.container, in: folder, stamp: stamp).get().entries
        // Read through a link that leads outside, never written through it.
        if folder.leadsOutside(request.container) {
            for index in entries.indices { entries[index].isWritable = false }
        }
        return entries
    }

    /// The parsed file, from the cache when its stamp is unchanged (an atomic replace by
    /// anyone gives a new inode, so it is never mistaken for the old file). Read through the
    /// served folder's one opening path: a FIFO, a device or a file over the limit is a
    /// problem of that container, never a hang or a huge read.
    /// - Parameter known: the file's stamp when the caller just took it (``locate(_:)``).
    private func document(_ name: String, in folder: ServedFolder, stamp known: FileStamp? = nil)
        -> Result<JSONFileDocument, JarvisError>
    {
        let path = folder.path(of: name)
        guard let stamp = known ?? FileStamp.of(path) else {
            if parsed.withLock({ $0.set(path, nil, weight: 0) }) { FreedMemory.giveBack() }
            return .failure(JarvisError(.storage, "cannot read \(name): it no longer exists"))
        }
        if let cached = parsed.withLock({ $0[path] }), cached.stamp == stamp { return cached.document }
        return parsing.run(path) {
            // Another reader may have parsed this version while this one waited.
            if let cached = parsed.withLock({ $0[path] }), cached.stamp == stamp { return cached.document }
            return parse(name, in: folder, path: path, stamp: stamp)
        }
    }

    /// Reads and parses the file and caches what it found (``document(_:in:stamp:)``).
    private func parse(_ name: String, in folder: ServedFolder, path: String, stamp: FileStamp)
        -> Result<JSONFileDocument, JarvisError>
    {
        var stored = stamp
        let document: Result<JSONFileDocument, JarvisError> = Result { () throws(JarvisError) in
            let snapshot = try folder.read(name, limit: JSONFileDocument.maxSize)
            guard let bytes = snapshot.bytes else {
                throw JarvisError(.storage, "cannot read \(name): it no longer exists")
            }
            // The stamp of what was read, so a write sees exactly the version parsed.
            if let read = snapshot.stamp { stored = read }
            return try JSONFileDocument(bytes: bytes)
        }
        if parsed.withLock({ $0.set(path, (stored, document), weight: Self.weight(of: document)) }) {
            FreedMemory.giveBack()
        }
        return document
    }

    /// What a parsed file (or the problem kept in its place) holds in memory.
    private static func weight(of document: Result<JSONFileDocument, JarvisError>) -> Int {
        switch document {
        case .success(let document): document.weight
        case .failure(let error): 64 + error.message.utf8.count
        }
    }

    /// Sets or removes one top-level key and replaces the file atomically.
    public func write(_ request: WriteRequest) throws {
        _ = try store(request)
    }

    /// Sets or removes one top-level key, replaces the file atomically, and returns the key as
    /// the file now holds it, parsed from the bytes written (nothing is read back); the parse
    /// is cached as that version of the file, so the next read opens nothing.
    public func store(_ asked: WriteRequest) throws -> WriteResult {
        var stored = asked
        stored.container = storedSpelling(of: asked.container)
        let request = stored
        // Per file, not per scanner: a slow write to one file never holds up another.
        return try writes.withLock(request.container) { () throws(JarvisError) -> WriteResult in try commit(request) }
    }

    private func commit(_ request: WriteRequest) throws(JarvisError) -> WriteResult {
        if let problem = spellingProblem(request.container) { throw problem }
        guard let (folder, stamp) = locate(request.container) else {
            throw JarvisError(
                .notFound,
                "no JSON file '\(request.container)' in \(folders.map(\.lastPathComponent).joined(separator: ", ")); create it (with {}) first"
            )
        }
        // Resolved once beneath the folder: a link inside is written at its target (the link
        // kept); one that leads outside, or swapped in during the write, is never written through.
        let slot = try folder.writableSlot(of: request.container, container: request.container)
        // Resolved again for the write: a link swapped in since `locate` leads nowhere excluded either.
        if !excluded.isEmpty, slot.display != request.container, let reason = notServedReason(slot.display) {
            throw JarvisError(.notFound, "not served: \(request.container): it leads to \(slot.display): \(reason)")
        }
        // The version the hub read just before (every read goes through the cache), so a
        // change another program made to this key since then is a conflict too.
        let path = folder.path(of: request.container)
        let cached = parsed.withLock { $0[path] }
        let seen = cached.flatMap { cached -> (stamp: FileStamp, key: JSONValue?)? in
            guard case .success(let document) = cached.document else { return nil }
            return (cached.stamp, document.object[request.key])
        }
        var undoHint: [UInt8]?
        let written = try CheckedFileWrite.update(
            slot, readBefore: seen, limit: JSONFileDocument.maxSize, beforeCommit: beforeCommit
        ) {
            (version) throws(JarvisError) -> (bytes: [UInt8]?, key: JSONValue?) in
            guard let bytes = version.bytes else {
                throw JarvisError(
                    .notFound, "\(request.container) was removed while Jarvis was writing it; nothing was written")
            }
            let editor = try JSONFileEditor(bytes: bytes)
            let key = editor.value(of: request.key)
            switch request.change {
            case .set(let value):
                if let hint = request.undoHint, let restored = editor.restoring(request.key, to: value, hint: hint) {
                    return (restored, key)
                }
                let edited = try editor.setting(request.key, to: value)
                return (edited == bytes ? nil : edited, key)
            case .delete:
                guard let (edited, hint) = editor.removingWithHint(request.key) else {
                    throw JarvisError.noKey(request.key, in: request.container)
                }
                undoHint = hint
                return (edited, key)
            }
        }
        // Nothing written: the file already held exactly this, as last parsed.
        guard let written else {
            return WriteResult(
                entry: try document(request.container, in: folder, stamp: stamp).get().entry(request.key))
        }
        let document = try JSONFileDocument(bytes: written.bytes)
        if let stamp = written.stamp {
            if parsed.withLock({ $0.set(path, (stamp, .success(document)), weight: document.weight) }) {
                FreedMemory.giveBack()
            }
        }
        // Written through the slot, so it leads nowhere outside the folder.
        var result = WriteResult(entry: document.entry(request.key))
        result.undoHint = undoHint
        result.step = written.stamp.map { ContainerVersion.Step(before: written.replaced?.version, after: $0.version) }
        return result
    }

    /// The file's stamp (one `stat` per folder asked, as a read makes): its version.
    public func version(of asked: String) -> ContainerVersion? {
        let name = storedSpelling(of: asked)
        guard spellingProblem(name) == nil, let (_, stamp) = locate(name) else { return nil }
        return stamp.version
    }

    /// The served folder that has a file of that name, only if it is one this scanner lists,
    /// and the file's stamp: one `stat` per folder asked, which follows links as reads do.
    private func locate(_ container: String) -> (ServedFolder, FileStamp)? {
        let parts = container.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }), matches(container),
            notServedReason(container) == nil
        else {
            return nil
        }
        for folder in served {
            // A link that leads outside is read (listed read-only); writes resolve the name
            // again beneath the folder and never follow such a link.
            var status = stat()
            guard stat(folder.path(of: container), &status) == 0,
                status.st_mode & S_IFMT != S_IFDIR
            else { continue }
            guard linkReason(container, in: folder) == nil else { return nil }
            return (folder, FileStamp(status: status))
        }
        return nil
    }

    /// Every folder and subfolder that exists when watching starts (inotify and kqueue watch
    /// one folder at a time; a subfolder created later is seen once watching starts again).
    public func watchTargets() -> [WatchTarget] {
        var paths: [String] = []
        for folder in served {
            let root = URL(fileURLWithPath: folder.realPath, isDirectory: true)
            paths.append(root.path)
            let subfolders = Set(
                relativePaths(in: folder).compactMap { relative -> String? in
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
            return notServedReason(relative) == nil && matches(relative) ? [relative] : []
        }
        return nil
    }

    /// Why a relative path is not served, or nil when it is.
    func notServedReason(_ relative: String) -> String? {
        let parts = relative.split(separator: "/").map(String.init)
        if let skipped = parts.dropLast().first(where: { Self.skippedFolders.contains($0) }) {
            return "it is inside \(skipped), a folder Jarvis skips (dependencies, build products, version control)"
        }
        if parts.contains(where: { $0.hasSuffix(".jarvis-tmp") }) { return "it is a temporary file of a write" }
        if let pattern = excluded.first(where: { pattern in
            pattern.matches(relative) || parts.contains { pattern.matches($0) }
        }) {
            return "it matches the exclude pattern \(pattern.description)"
        }
        return nil
    }

    /// The name as one of the served folders stores it (see ``ServedFolder/storedSpelling(of:)``).
    private func storedSpelling(of name: String) -> String {
        for folder in served {
            let stored = folder.storedSpelling(of: name)
            if stored.utf8.elementsEqual(name.utf8) == false { return stored }
        }
        return name
    }

    /// Why a name is not served for what it leads to: a link inside the folder to a file
    /// (or through a folder) that `exclude` leaves out serves it under no other name, as hide
    /// rules follow links. Nil when the name is no such link, or nothing is excluded (then no
    /// look is taken: a skipped folder is left out to save time, not to keep it from anyone).
    func linkReason(_ relative: String, in folder: ServedFolder) -> String? {
        guard !excluded.isEmpty, let target = folder.alias(of: relative), let reason = notServedReason(target) else {
            return nil
        }
        return "it leads to \(target): \(reason)"
    }

    private func matches(_ relativePath: String) -> Bool {
        let name = String(relativePath.split(separator: "/").last ?? "")
        return patterns.contains { $0.matches($0.description.contains("/") ? relativePath : name) }
    }

    /// Every file under the folder by the name it is listed under (a link by its own name),
    /// links included wherever they lead; ``ServedFolder`` decides what may be written.
    private func relativePaths(in folder: ServedFolder) -> [String] {
        let root = URL(fileURLWithPath: folder.realPath, isDirectory: true)
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey], options: [])
        else { return [] }
        var result: [String] = []
        for case let url as URL in enumerator {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(folder.realPath + "/") else { continue }
            let relative = String(path.dropFirst(folder.realPath.count + 1))
            // A skipped or excluded folder is not walked at all: node_modules can hold 100,000 files.
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true,
                notServedReason(relative + "/x") != nil || excluded.contains(where: { $0.matches(relative) })
            {
                enumerator.skipDescendants()
                continue
            }
            guard notServedReason(relative) == nil, linkReason(relative, in: folder) == nil else { continue }
            var isDirectory: ObjCBool = false
            // `fileExists` follows links: a dangling link or a link to a folder is no file.
            guard folder.place(of: relative) != .missing,
                FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            result.append(relative)
        }
        return result
    }

    /// A link's target inside the folder is an alias, so hide rules on the target apply to
    /// the link; on a case-insensitive volume they match without case.
    public func storedNames(container asked: String, key: String?) -> StoredNames {
        // Keys live inside the file: their names are only themselves.
        guard key == nil, let first = served.first else { return StoredNames() }
        let container = storedSpelling(of: asked)
        // One served folder (the usual case): no need to find which folder holds the name.
        let folder =
            served.count == 1 ? first : served.first(where: { $0.place(of: container) != .missing }) ?? first
        return StoredNames(aliases: folder.alias(of: container).map { [$0] } ?? [], ignoresCase: folder.ignoresCase)
    }
}

extension PreferenceScanner where Self == JSONFilesScanner {
    /// The JSON files under `folders` (recursively) whose name matches `pattern` (by default
    /// `*.json` and `*.jsonc`), leaving out ``JSONFilesScanner/skippedFolders`` and what
    /// `exclude` matches.
    ///
    /// ```swift
    /// agent.register(.jsonFiles(in: [URL(fileURLWithPath: "config")]))
    /// ```
    /// - Parameter cacheBytes: what the parsed files kept between reads may take in memory;
    ///   nil for 32 MiB.
    public static func jsonFiles(
        in folders: [URL], pattern: GlobPattern? = nil, exclude: [GlobPattern] = [], id: String = "files",
        cacheBytes: Int? = nil
    ) -> JSONFilesScanner {
        JSONFilesScanner(id: id, folders: folders, pattern: pattern, exclude: exclude, cacheBytes: cacheBytes)
    }
}
