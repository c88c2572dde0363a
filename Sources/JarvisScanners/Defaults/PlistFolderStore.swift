import Foundation
import JarvisCore

/// Suites kept as `<suite>.plist` files in one folder, for `jarvis-agent --defaults-dir`:
/// a program that does not embed the SDK, whose files Jarvis reads and writes directly.
///
/// A file is parsed once per version: parsed entries are cached under the file's
/// modification time, size and inode, so a listing of a large suite parses it again only
/// when it changed (an atomic replace by anyone changes the inode). Writes re-read the file,
/// keep its format and permissions, and replace it atomically; a file that does not parse is
/// reported as a problem and never overwritten.
final class PlistFolderStore: DefaultsStore {
    let folder: URL
    let includeSystemDomains: Bool
    // Parsed suites by name, replaced whenever the file's signature changes.
    private let cache = Locked<[String: CachedSuite]>([:])

    init(folder: URL, includeSystemDomains: Bool) {
        self.folder = folder
        self.includeSystemDomains = includeSystemDomains
    }

    var info: ScannerInfo {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        return ScannerInfo(
            displayName: "Defaults plist folder", isWritable: true,
            unavailableReason: exists && isDirectory.boolValue
                ? nil : "the defaults folder '\(folder.lastPathComponent)' does not exist or is not a folder")
    }

    func watchTargets() -> [WatchTarget] {
        [.folder(folder.path)]
    }

    func containers(changedAt path: String) -> [String]? {
        DefaultsSuite.suite(at: path, in: folder)
    }

    func containers() throws -> [ContainerInfo] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw JarvisError(
                .unavailable,
                "cannot list the defaults folder '\(folder.lastPathComponent)': \(error.localizedDescription)")
        }
        return files.filter { $0.hasSuffix(".plist") }.sorted().compactMap { file in
            let name = String(file.dropLast(".plist".count))
            guard !name.isEmpty, includeSystemDomains || !DefaultsSuite.isSystemDomain(name),
                let suite = try? load(name)
            else { return nil }
            return Self.info(name, suite)
        }
    }

    func container(named name: String) throws -> ContainerInfo? {
        guard DefaultsSuite.isCreatable(name, includeSystemDomains: includeSystemDomains) else { return nil }
        guard let suite = try load(name) else { return ContainerInfo(name, exists: false) }
        return Self.info(name, suite)
    }

    private static func info(_ name: String, _ suite: CachedSuite) -> ContainerInfo {
        switch suite.contents {
        case .parsed(_, let format): return ContainerInfo(name, isWritable: format != .openStep)
        case .unreadable(let problem): return ContainerInfo(name, problem: problem, isWritable: false)
        }
    }

    func entries(in suite: String, keys: [String]?) throws -> [ScannedEntry] {
        guard let cached = try load(suite) else { return [] }
        switch cached.contents {
        case .parsed(let entries, _):
            guard let keys else { return entries.sorted }
            return keys.compactMap { key in entries.index[key].map { entries.sorted[$0] } }
        case .unreadable(let problem):
            throw JarvisError(.storage, "'\(suite).plist' cannot be read: \(problem)")
        }
    }

    func storedObject(forKey key: String, in suite: String) throws -> Any? {
        try parse(url(of: suite))?.dictionary[key]
    }

    func setObject(_ object: Any?, forKey key: String, in suite: String) throws {
        // Replace the file a symlink points to, not the link (dotfile managers link plists).
        let url = try url(of: suite).resolvingSymlinksInPath()
        var dictionary: [String: Any] = [:]
        var format = PropertyListSerialization.PropertyListFormat.xml
        if let current = try parse(url) {
            dictionary = current.dictionary
            format = current.format
        } else if object == nil {
            return
        }
        guard format != .openStep else {
            throw JarvisError(
                .readOnly,
                "'\(suite).plist' is an OpenStep-format property list, which cannot be written; convert it to XML first"
            )
        }
        dictionary[key] = object
        let data: Data
        do {
            data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
        } catch {
            throw JarvisError(
                .typeMismatch, "'\(key)' cannot be stored in a property list: \(error.localizedDescription)")
        }
        try AtomicFile.replace(url.path, with: [UInt8](data))
    }

    // MARK: - Files

    private enum Contents {
        case parsed(Entries, PropertyListSerialization.PropertyListFormat)
        case unreadable(String)
    }

    /// A parsed suite, sorted by key once per file version: a listing hands out the array
    /// itself (no copy) already in the order the hub shows, and a key is found by index.
    private struct Entries {
        var sorted: [ScannedEntry]
        var index: [String: Int]
    }

    private struct CachedSuite {
        var signature: FileStamp
        var contents: Contents
    }

    private func url(of suite: String) throws(JarvisError) -> URL {
        try DefaultsSuite.validate(suite)
        return folder.appendingPathComponent(suite + ".plist", isDirectory: false)
    }

    /// The suite's parsed entries, from the cache when the file is unchanged; nil when no file.
    private func load(_ suite: String) throws -> CachedSuite? {
        let url = try url(of: suite)
        guard let signature = FileStamp.of(url.path) else {
            cache.withLock { $0[suite] = nil }
            return nil
        }
        if let cached = cache.withLock({ $0[suite] }), cached.signature == signature {
            return cached
        }
        let contents: Contents
        do {
            if let parsed = try parse(url) {
                var sorted = try Self.entries(of: parsed.dictionary)
                sorted.sort { $0.key < $1.key }
                var index: [String: Int] = [:]
                index.reserveCapacity(sorted.count)
                for (position, entry) in sorted.enumerated() { index[entry.key] = position }
                contents = .parsed(Entries(sorted: sorted, index: index), parsed.format)
            } else {
                return nil
            }
        } catch {
            contents = .unreadable(error.message)
        }
        let cached = CachedSuite(signature: signature, contents: contents)
        cache.withLock { $0[suite] = cached }
        return cached
    }

    /// Converts a parsed suite, spreading a large one over the cores: the conversion is most
    /// of what a scan adds to decoding the file, and the agent's thread would wait for it.
    private static func entries(of dictionary: [String: Any]) throws(JarvisError) -> [ScannedEntry] {
        let pairs = Array(dictionary)
        let chunks = pairs.count < 4096 ? 1 : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        var parts = [[ScannedEntry]](repeating: [], count: chunks)
        var failures = [JarvisError?](repeating: nil, count: chunks)
        parts.withUnsafeMutableBufferPointer { parts in
            failures.withUnsafeMutableBufferPointer { failures in
                // Each iteration writes only its own slot of `parts` and `failures`, and only
                // reads `pairs`, which nothing changes meanwhile.
                nonisolated(unsafe) let pairs = pairs
                nonisolated(unsafe) let parts = parts
                nonisolated(unsafe) let failures = failures
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let range = (pairs.count * chunk / chunks)..<(pairs.count * (chunk + 1) / chunks)
                    var converted: [ScannedEntry] = []
                    converted.reserveCapacity(range.count)
                    do throws(JarvisError) {
                        for position in range {
                            converted.append(
                                try DefaultsEntries.entry(
                                    key: pairs[position].key, object: pairs[position].value, layer: .stored))
                        }
                    } catch {
                        failures[chunk] = error
                    }
                    parts[chunk] = converted
                }
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        return parts.count == 1 ? parts[0] : Array(parts.joined())
    }

    /// Reads and parses a file afresh; nil when it does not exist.
    /// - Throws: ``JarvisError`` `.storage` when it cannot be read or is not a dictionary plist.
    private func parse(_ url: URL) throws(JarvisError) -> (
        dictionary: [String: Any], format: PropertyListSerialization.PropertyListFormat
    )? {
        let name = url.lastPathComponent
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw JarvisError(.storage, "cannot read '\(name)': \(error.localizedDescription)")
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            let detail =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw JarvisError(
                .storage,
                "'\(name)' is not a valid property list (\(detail)); fix or remove the file, Jarvis will not overwrite it"
            )
        }
        guard let dictionary = object as? [String: Any] else {
            throw JarvisError(
                .storage,
                "'\(name)' holds a \(type(of: object)) at the top level, not a dictionary; Jarvis will not overwrite it"
            )
        }
        return (dictionary, format)
    }
}
