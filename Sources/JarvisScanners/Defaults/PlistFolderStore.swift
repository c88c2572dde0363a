import Foundation
import JarvisCore
import JarvisSystem

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
    /// The folder with the symbolic-link policy every file-backed scanner follows.
    let served: ServedFolder
    // Parsed suites by name, replaced whenever the file's signature changes.
    private let cache = Locked(SuiteCache())

    /// The parsed suites. A suite found a plain, unchanged file at a change count of the
    /// folder (``FolderChanges``, which this process's own writes move too) is taken to be
    /// unchanged while the count stays.
    private struct SuiteCache {
        private(set) var suites: [String: CachedSuite] = [:]
        /// The last suite found with a quiet mark: requests in a row mostly ask for one suite,
        /// and comparing its name costs less than hashing it again for every look.
        private var lastQuietSuite: String?
        private var lastQuiet: CachedSuite?

        /// The suite as cached, when it carries a quiet mark (the caller compares the mark
        /// with the folder's change count now).
        mutating func quietCandidate(_ suite: String) -> CachedSuite? {
            if lastQuietSuite == suite { return lastQuiet }
            guard let cached = suites[suite], cached.quietAt != nil else { return nil }
            lastQuietSuite = suite
            lastQuiet = cached
            return cached
        }

        /// Replaces (or, nil, forgets) a suite's cached version.
        mutating func set(_ suite: String, _ cached: CachedSuite?) {
            suites[suite] = cached
            if lastQuietSuite == suite {
                lastQuietSuite = nil
                lastQuiet = nil
            }
        }
    }

    init(folder: URL, includeSystemDomains: Bool, ignoresCase: Bool? = nil) {
        self.folder = folder
        self.includeSystemDomains = includeSystemDomains
        served = ServedFolder(folder, ignoresCase: ignoresCase, hearsChanges: true)
    }

    /// The suite as its file's name is stored (see ``ServedFolder/storedSpelling(of:)``).
    private func stored(_ suite: String) -> String {
        let file = served.storedSpelling(of: suite + ".plist")
        return file.hasSuffix(".plist") ? String(file.dropLast(".plist".count)) : suite
    }

    func storedNames(suite asked: String, checkpoint: ChangeCheckpoint) -> StoredNames {
        let suite = stored(asked)
        // A system domain by its own name is hidden whatever the folder holds: decided before
        // the file system is asked, so one that exists and one that does not answer alike.
        if let system = Self.systemByName(suite, includeSystemDomains: includeSystemDomains) { return system }
        // A plain file found unchanged while the folder stayed quiet leads nowhere but to itself.
        // (The count is asked only for a suite cached so: a missing one costs no more.)
        if let cached = cache.withLock({ $0.quietCandidate(suite) }),
            served.changeGeneration(checkpoint) == cached.quietAt
        {
            return StoredNames(aliases: [], ignoresCase: served.ignoresCase, isSystem: false)
        }
        let alias = served.alias(of: suite + ".plist", checkpoint: checkpoint).flatMap { target in
            target.hasSuffix(".plist") && !target.contains("/") ? String(target.dropLast(".plist".count)) : target
        }
        // The suite's own name was asked above; only where a link leads is left.
        return StoredNames(
            aliases: alias.map { [$0] } ?? [], ignoresCase: served.ignoresCase,
            isSystem: !includeSystemDomains && alias.map(DefaultsSuite.isSystemDomain) ?? false)
    }

    /// The names of `suite` when its own name is a hidden system domain; nil otherwise.
    static func systemByName(_ suite: String, includeSystemDomains: Bool) -> StoredNames? {
        !includeSystemDomains && DefaultsSuite.isSystemDomain(suite) ? StoredNames(isSystem: true) : nil
    }

    var info: ScannerInfo {
        ScannerInfo(
            displayName: "Defaults plist folder", isWritable: true,
            unavailableReason: folderIsThere()
                ? nil : "the defaults folder '\(folder.lastPathComponent)' does not exist or is not a folder")
    }

    /// When the folder was last found to be a folder.
    private let folderSeen = Locked<ContinuousClock.Instant?>(nil)
    /// How long a folder found is taken to be there still. Asked on every `get`, whose own
    /// `lstat` of the suite fails anyway if the folder went: a stale "there" costs at most a
    /// "no key" where "unavailable" would be exact, never a wrong value.
    static let folderSeenLifetime = Duration.milliseconds(250)

    /// Whether the folder exists and is a folder: one `stat`, unless one just found it.
    private func folderIsThere() -> Bool {
        let now = ContinuousClock.now
        if let seen = folderSeen.current, now - seen < Self.folderSeenLifetime { return true }
        var status = stat()
        let isFolder = stat(served.pathPrefix, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        folderSeen.withLock { $0 = isFolder ? now : nil }
        return isFolder
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
            guard !name.isEmpty else { return nil }
            // System domains are listed so the hub can count what it hides, but a hidden one
            // is never opened: its name alone hides it (see `storedNames(suite:checkpoint:)`).
            if !includeSystemDomains, DefaultsSuite.isSystemDomain(name) { return ContainerInfo(name, isWritable: false) }
            guard let loaded = try? load(name) else { return nil }
            return info(name, loaded)
        }
    }

    func container(named asked: String) throws -> ContainerInfo? {
        guard DefaultsSuite.isCreatable(asked) else { return nil }
        let name = stored(asked)
        guard let loaded = try load(name) else { return ContainerInfo(asked, exists: false) }
        return info(name, loaded)
    }

    private func info(_ name: String, _ loaded: Loaded) -> ContainerInfo {
        switch loaded.suite.contents {
        case .parsed(_, let format):
            // A link that leads outside is read, never written through.
            return ContainerInfo(name, isWritable: format != .openStep && !leadsOutside(name, loaded))
        case .unreadable(let problem): return ContainerInfo(name, problem: problem, isWritable: false)
        }
    }

    func entry(_ key: String, in suite: String) throws -> ScannedEntry? {
        guard let (entries, readOnly) = try readable(stored(suite)), let position = entries.index[key] else {
            return nil
        }
        var found = entries.sorted[position]
        if readOnly { found.isWritable = false }
        return found
    }

    /// The key from the cached suite when ``load(_:)`` would take it without a look at the
    /// file (a plain file found unchanged while the watched folder stayed quiet); nil otherwise.
    /// A name that is not ASCII may be stored in another spelling, which only a look finds.
    func entryInMemory(_ key: String, in suite: String, checkpoint: ChangeCheckpoint) -> ScannedEntry? {
        guard suite.utf8.allSatisfy({ $0 < 0x80 }), let cached = cache.withLock({ $0.quietCandidate(suite) }),
            let generation = served.changeGeneration(checkpoint), generation == cached.quietAt,
            case .parsed(let entries, _) = cached.contents, let position = entries.index[key]
        else { return nil }
        return entries.sorted[position]
    }

    func entries(in suite: String, keys: [String]?) throws -> [ScannedEntry] {
        guard let (entries, readOnly) = try readable(stored(suite)) else { return [] }
        var found =
            keys.map { keys in keys.compactMap { key in entries.index[key].map { entries.sorted[$0] } } }
            ?? entries.sorted
        if readOnly {
            for index in found.indices { found[index].isWritable = false }
        }
        return found
    }

    /// A suite's parsed entries, and whether they are read through a link that leads outside
    /// (read, never written through); nil when the suite has no file.
    /// - Throws: ``JarvisError`` `.storage` when the file does not parse.
    private func readable(_ suite: String) throws -> (entries: Entries, readOnly: Bool)? {
        guard let loaded = try load(suite) else { return nil }
        switch loaded.suite.contents {
        case .parsed(let entries, _):
            return (entries, leadsOutside(suite, loaded))
        case .unreadable(let problem):
            throw JarvisError(.storage, "'\(suite).plist' cannot be read: \(problem)")
        }
    }

    func storedObject(forKey key: String, in suite: String) throws -> Any? {
        try parse(stored(suite))?.dictionary[key]
    }

    func setObject(_ object: Any?, forKey key: String, in asked: String) throws -> ScannedEntry? {
        let suite = stored(asked)
        // A link inside the folder has its target replaced, the link kept (dotfile managers
        // link plists); one that leads outside is never written through.
        try DefaultsSuite.validate(suite)
        let file = suite + ".plist"
        let slot = try served.writableSlot(of: file, container: suite)
        // The version last read (the hub reads before it writes), and the key there.
        let seen = cache.withLock { $0.suites[suite] }.flatMap { cached -> (stamp: FileStamp, key: PreferenceValue?)? in
            guard case .parsed(let entries, _) = cached.contents else { return nil }
            return (cached.signature, entries.index[key].map { entries.sorted[$0].value })
        }
        // Made again on top of any version another program writes before the replace.
        let written = try CheckedFileWrite.update(slot, readBefore: seen, limit: Self.maxSize) {
            (version) throws(JarvisError) -> (bytes: [UInt8]?, key: PreferenceValue?) in
            var dictionary: [String: Any] = [:]
            // New suites are binary, as Apple's preferences daemon writes them: binary keeps a
            // date's fraction of a second and every character, which XML cannot.
            var format = PropertyListSerialization.PropertyListFormat.binary
            if let bytes = version.bytes {
                let current = try Self.parse(Data(bytes), name: file)
                dictionary = current.dictionary
                format = current.format
            } else if object == nil {
                return (nil, nil)
            }
            var stored: PreferenceValue?
            if let old = dictionary[key] {
                stored = try DefaultsEntries.entry(key: key, object: old, layer: .stored).value
            }
            guard format != .openStep else {
                throw JarvisError(
                    .readOnly,
                    "'\(suite).plist' is an OpenStep-format property list, which cannot be written; convert it to XML first"
                )
            }
            if format == .xml, let object { try XMLPlistText.check(object, key: key, file: suite + ".plist") }
            dictionary[key] = object
            let data: Data
            do {
                data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
            } catch {
                throw JarvisError(
                    .typeMismatch, "'\(key)' cannot be stored in a property list: \(error.localizedDescription)")
            }
            return ([UInt8](data), stored)
        }
        // Nothing written: no file, and nothing to remove.
        guard let written else { return nil }
        // The bytes written, parsed in memory (exactly what a read of the file would give) and
        // kept as that version of the file: the write reads nothing back.
        let parsed = try Self.parse(Data(written.bytes), name: file)
        let contents = Contents.parsed(try Self.sortedEntries(of: parsed.dictionary), parsed.format)
        cache.withLock { $0.set(suite, written.stamp.map { CachedSuite(signature: $0, contents: contents) }) }
        guard case .parsed(let entries, _) = contents, let position = entries.index[key] else { return nil }
        return entries.sorted[position]
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

    /// A class: every `get` takes the suite from the cache, and a reference is one retain
    /// where a copy of the parsed contents was one for each of their parts.
    private final class CachedSuite: Sendable {
        let signature: FileStamp
        let contents: Contents
        /// The folder's change count when the file was last found plain and unchanged.
        let quietAt: UInt64?

        init(signature: FileStamp, contents: Contents, quietAt: UInt64? = nil) {
            self.signature = signature
            self.contents = contents
            self.quietAt = quietAt
        }

        /// The same version of the file, found plain and unchanged at `quietAt`.
        func marked(_ quietAt: UInt64?) -> CachedSuite {
            quietAt == self.quietAt ? self : CachedSuite(signature: signature, contents: contents, quietAt: quietAt)
        }
    }

    /// A suite as found now: its parsed version, and whether its name is a link (which is
    /// asked at every load, never cached: a link can replace a file without changing the
    /// stamp of what it leads to).
    private struct Loaded {
        var suite: CachedSuite
        var isLink: Bool
    }

    /// Whether a loaded suite's name is a link that leads outside the folder: only a link
    /// can, so a plain file is answered by the `lstat` its load made.
    private func leadsOutside(_ suite: String, _ loaded: Loaded) -> Bool {
        loaded.isLink && served.leadsOutside(suite + ".plist")
    }

    /// The suite's parsed entries, from the cache when the file is unchanged; nil when no file.
    /// The file's path is joined as text: building a `URL` per `get` cost more than the rest
    /// of reading a cached suite.
    private func load(_ suite: String) throws -> Loaded? {
        // Quiet folder, plain file found unchanged since: no look at the file at all (and the
        // name was checked when it was cached). The count is asked only for a suite cached so,
        // and then once more only after a look.
        var generation: UInt64?
        if let cached = cache.withLock({ $0.quietCandidate(suite) }) {
            generation = served.changeGeneration()
            if generation == cached.quietAt { return Loaded(suite: cached, isLink: false) }
        }
        try DefaultsSuite.validate(suite)
        let name = suite + ".plist"
        // The hide rules' look at the name, a moment ago, when it found a plain file.
        let looked = served.recentStatus(of: name).flatMap { status -> (FileStamp, Bool)? in
            status.st_mode & S_IFMT == S_IFLNK ? nil : (FileStamp(status: status), false)
        }
        guard let (signature, isLink) = looked ?? FileStamp.ofEntry(served.path(of: name)) else {
            cache.withLock { $0.set(suite, nil) }
            return nil
        }
        // Whether that look is one the folder's change count vouches for (a plain file, watched).
        if generation == nil, !isLink { generation = served.changeGeneration() }
        let vouched = generation.flatMap { served.isQuietlyKnown(name, at: $0) ? $0 : nil }
        if let cached = cache.withLock({ cache -> CachedSuite? in
            guard let found = cache.suites[suite], found.signature == signature else { return nil }
            let cached = found.marked(vouched)
            cache.set(suite, cached)
            return cached
        }) {
            return Loaded(suite: cached, isLink: isLink)
        }
        let contents: Contents
        do {
            if let parsed = try parse(suite) {
                contents = .parsed(try Self.sortedEntries(of: parsed.dictionary), parsed.format)
            } else {
                return nil
            }
        } catch {
            contents = .unreadable(error.message)
        }
        // Parsed after the look: a change in between moved the count, so the mark cannot hold.
        let cached = cache.withLock { cache -> CachedSuite in
            let cached = CachedSuite(signature: signature, contents: contents, quietAt: vouched)
            cache.set(suite, cached)
            return cached
        }
        return Loaded(suite: cached, isLink: isLink)
    }

    /// A parsed suite's entries, sorted by key and indexed.
    private static func sortedEntries(of dictionary: sending [String: Any]) throws(JarvisError) -> Entries {
        var sorted = try entries(of: dictionary)
        sorted.sort { $0.key < $1.key }
        var index: [String: Int] = [:]
        index.reserveCapacity(sorted.count)
        for (position, entry) in sorted.enumerated() { index[entry.key] = position }
        return Entries(sorted: sorted, index: index)
    }

    /// Converts a parsed suite, spreading a large one over the cores: the conversion is most
    /// of what a scan adds to decoding the file, and the agent's thread would wait for it.
    /// Each chunk's pairs are handed to the thread that converts them (they hold `Any`, which
    /// is not `Sendable`), and each thread hands back what it made.
    private static func entries(of dictionary: sending [String: Any]) throws(JarvisError) -> [ScannedEntry] {
        let count = dictionary.count
        let chunks = count < 4096 ? 1 : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        guard chunks > 1 else { return try convert(Array(dictionary)) }
        var slices = [[(key: String, value: Any)]](repeating: [], count: chunks)
        for (position, pair) in dictionary.enumerated() { slices[position * chunks / count].append(pair) }
        let handoff = Handoff(slices)
        let converted = Locked([Result<[ScannedEntry], JarvisError>?](repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let slice = handoff.take(chunk) ?? []
            let result = Result { () throws(JarvisError) in try convert(slice) }
            converted.withLock { $0[chunk] = result }
        }
        var entries: [ScannedEntry] = []
        entries.reserveCapacity(count)
        for result in converted.current { entries += try result?.get() ?? [] }
        return entries
    }

    /// The entries of `pairs`, in their order.
    private static func convert(_ pairs: [(key: String, value: Any)]) throws(JarvisError) -> [ScannedEntry] {
        var converted: [ScannedEntry] = []
        converted.reserveCapacity(pairs.count)
        for (key, object) in pairs {
            converted.append(try DefaultsEntries.entry(key: key, object: object, layer: .stored))
        }
        return converted
    }

    /// The largest suite file read: Apple's own stay far below it.
    static let maxSize = 64 << 20

    /// Reads and parses a suite's file afresh, through the served folder's one opening path;
    /// nil when it does not exist.
    /// - Throws: ``JarvisError`` `.storage` when it cannot be read (a FIFO, a device, a file
    ///   over the limit) or is not a dictionary plist.
    private func parse(_ suite: String) throws(JarvisError) -> (
        dictionary: [String: Any], format: PropertyListSerialization.PropertyListFormat
    )? {
        try DefaultsSuite.validate(suite)
        guard let bytes = try served.read(suite + ".plist", limit: Self.maxSize).bytes else { return nil }
        return try Self.parse(Data(bytes), name: suite + ".plist")
    }

    /// Parses a suite file's contents.
    /// - Throws: ``JarvisError`` `.storage` when it is not a dictionary plist.
    private static func parse(_ data: Data, name: String) throws(JarvisError) -> (
        dictionary: [String: Any], format: PropertyListSerialization.PropertyListFormat
    ) {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        // Foundation reads a damaged binary plist as old-style text: `bplist00…` becomes a
        // string, or an "unexpected character b"; say what the file really is.
        let damagedBinary =
            "'\(name)' starts like a binary property list but is damaged (cut short or overwritten); fix or remove the file, Jarvis will not overwrite it"
        let looksBinary = data.starts(with: Array("bplist".utf8))
        // Foundation would keep one of two keys that are one name and drop the other: refuse the
        // suite without naming the key (it may be one the configuration hides).
        if PlistKeySpellings.hasDuplicateKey([UInt8](data)) {
            throw JarvisError(
                .storage,
                "'\(name)' holds one key name twice in a dictionary (written the same, or in two Unicode spellings such as a composed ñ and n + U+0303, which Jarvis reads as one name), so neither could be read or written without losing the other; remove one of them with the app's own tools, Jarvis will not read or overwrite the file"
            )
        }
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            if looksBinary { throw JarvisError(.storage, damagedBinary) }
            let detail =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw JarvisError(
                .storage,
                "'\(name)' is not a valid property list (\(detail)); fix or remove the file, Jarvis will not overwrite it"
            )
        }
        if looksBinary && format != .binary { throw JarvisError(.storage, damagedBinary) }
        guard let dictionary = object as? [String: Any] else {
            throw JarvisError(
                .storage,
                "'\(name)' holds \(Self.kind(of: object)) at the top level, not a dictionary; Jarvis will not overwrite it"
            )
        }
        return (dictionary, format)
    }

    /// What a plist's top-level object is, in words: Foundation's class names (`__NSCFString`,
    /// `__NSArrayM`) differ by platform and mean nothing to the person reading the message.
    private static func kind(of object: Any) -> String {
        switch object {
        case is String: "a string"
        case is [Any]: "an array"
        case is Data: "data"
        case is Date: "a date"
        case is NSNumber: "a number or boolean"
        default: "a \(type(of: object))"
        }
    }
}
