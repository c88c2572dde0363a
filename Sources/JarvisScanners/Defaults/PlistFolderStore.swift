import Foundation
import JarvisCore
import JarvisSystem

/// Suites kept as `<suite>.plist` files in one folder, for `jarvis-agent --defaults-dir`:
/// a program that does not embed the SDK, whose files Jarvis reads and writes directly.
///
/// A file is parsed once per version: parsed entries are cached under the file's
/// modification time, size and inode, so a listing of a large suite parses it again only
/// when it changed (an atomic replace by anyone changes the inode). Files are read and written
/// with Jarvis's own codec (``PropertyListDocument``), never Foundation's: a write changes the
/// one key in the file as read (an XML file in place, so the rest stays byte for byte; a binary
/// one rewritten with every other value as it was), keeps its format and permissions, and
/// replaces it atomically; a file that does not parse is reported as a problem and never
/// overwritten. The parsed suites kept are bounded in bytes (``ParsedCache``): a folder of
/// many large suites costs the bound, not the sum of what they expand to.
final class PlistFolderStore: DefaultsStore {
    let folder: URL
    let includeSystemDomains: Bool
    /// The folder with the symbolic-link policy every file-backed scanner follows.
    let served: ServedFolder
    // Parsed suites by name, replaced whenever the file's signature changes.
    private let cache: Locked<SuiteCache>

    /// The parsed suites. A suite found a plain, unchanged file at a change count of the
    /// folder (``FolderChanges``, which this process's own writes move too) is taken to be
    /// unchanged while the count stays.
    private struct SuiteCache {
        private(set) var suites: ParsedCache<String, CachedSuite>
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

        init(byteBudget: Int) {
            suites = ParsedCache(byteBudget: byteBudget)
        }

        /// Replaces (or, nil, forgets) a suite's cached version; the suites cached longest ago
        /// go while the cache is over its budget.
        /// - Returns: whether to give freed memory back (see ``ParsedCache/set(_:_:weight:)``).
        @discardableResult
        mutating func set(_ suite: String, _ cached: CachedSuite?) -> Bool {
            let release = suites.set(suite, cached, weight: cached?.weight ?? 0)
            if let lastQuietSuite, suites[lastQuietSuite] == nil {
                self.lastQuietSuite = nil
                lastQuiet = nil
            }
            if lastQuietSuite == suite {
                lastQuietSuite = nil
                lastQuiet = nil
            }
            return release
        }
    }

    /// The folder's resolved path.
    var location: String? { served.currentRealPath }

    /// The suite's file, as resolved from the folder's real path.
    func location(of suite: String) -> String? {
        served.location(of: served.storedSpelling(of: suite + ".plist"))
    }

    /// - Parameter cacheBytes: what the parsed suites kept may take in memory
    ///   (``ParsedCache/defaultBytes`` unless given).
    init(folder: URL, includeSystemDomains: Bool, ignoresCase: Bool? = nil, cacheBytes: Int? = nil) {
        cache = Locked(SuiteCache(byteBudget: cacheBytes ?? ParsedCache<String, CachedSuite>.defaultBytes))
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
            if !includeSystemDomains, DefaultsSuite.isSystemDomain(name) {
                return ContainerInfo(name, isWritable: false)
            }
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
        case .parsed:
            // A link that leads outside is read, never written through.
            return ContainerInfo(name, isWritable: !leadsOutside(name, loaded))
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
        guard let value = try parse(stored(suite))?.value(forKey: key) else { return nil }
        return try PropertyListValue.encode(value.preferenceValue.value, path: key)
    }

    func setObject(_ object: Any?, forKey key: String, in asked: String) throws -> WriteResult {
        let suite = stored(asked)
        // A link inside the folder has its target replaced, the link kept (dotfile managers
        // link plists); one that leads outside is never written through.
        try DefaultsSuite.validate(suite)
        let file = suite + ".plist"
        let slot = try served.writableSlot(of: file, container: suite)
        // The version last read (the hub reads before it writes), and the key there.
        let cached = cache.withLock { $0.suites[suite] }
        let seen = cached.flatMap { cached -> (stamp: FileStamp, key: PreferenceValue?)? in
            guard case .parsed(let entries, _) = cached.contents else { return nil }
            return (cached.signature, entries.index[key].map { entries.sorted[$0].value })
        }
        let value = try object.map { object throws(JarvisError) in try Self.propertyList(object, key: key) }
        var document: PropertyListDocument?
        var changed: PropertyListDocument?
        // Made again on top of any version another program writes before the replace.
        let written = try CheckedFileWrite.update(slot, readBefore: seen, limit: Self.maxSize) {
            (version) throws(JarvisError) -> (bytes: [UInt8]?, key: PreferenceValue?) in
            let current: PropertyListDocument
            if let bytes = version.bytes {
                // The version cached is the one on disk when its stamp and bytes are: no parse.
                if let cached, version.stamp == cached.signature, case .parsed(_, let known) = cached.contents,
                    known.bytes == bytes
                {
                    current = known
                } else {
                    current = try Self.parse(bytes, name: file)
                    // A file read refuses (its data would expand past its budget) is never written.
                    _ = try Self.sortedEntries(of: current, name: file)
                }
            } else if value == nil {
                return (nil, nil)
            } else {
                // New suites are binary, as Apple's preferences daemon writes them: binary keeps a
                // date's fraction of a second and every character, which XML cannot.
                current = .empty(.binary)
            }
            let stored = current.value(forKey: key).map { old in
                DefaultsEntries.entry(key: key, value: old, layer: .stored).value
            }
            if current.format == .xml, let object { try XMLPlistText.check(object, key: key, file: file) }
            do throws(PropertyListError) {
                let next = try current.setting(key, to: value)
                document = current
                changed = next
                return (next.bytes, stored)
            } catch {
                throw JarvisError(.typeMismatch, "'\(key)' cannot be stored in '\(file)': \(error.message)")
            }
        }
        // Nothing written: no file, and nothing to remove.
        guard let written, let changed else { return WriteResult(entry: nil) }
        // What was written is kept as that version of the file: the write reads nothing back
        // but the changed key (``PropertyListDocument/setting(_:to:)``), and the cached entries
        // change by that key alone when they were made from the version changed.
        let entry = changed.value(forKey: key).map { new in
            DefaultsEntries.entry(key: key, value: new, layer: .stored)
        }
        let contents: Contents
        if let cached, case .parsed(let old, let known) = cached.contents, let document, known.bytes == document.bytes {
            contents = .parsed(old.replacing(key, with: entry), changed)
        } else {
            // Written already: a version that passes the budget is kept as its reads find it.
            do {
                contents = .parsed(try Self.sortedEntries(of: changed, name: file), changed)
            } catch {
                contents = .unreadable(error.message)
            }
        }
        if cache.withLock({ $0.set(suite, written.stamp.map { CachedSuite(signature: $0, contents: contents) }) }) {
            FreedMemory.giveBack()
        }
        var result = WriteResult(entry: entry)
        // Known for certain only when the file Jarvis wrote is still the one at the name. (A
        // name that is a link has no version, ``version(of:)``, so no step leads from it.)
        if let stamp = written.stamp {
            result.step = ContainerVersion.Step(before: written.replaced?.version, after: stamp.version)
        }
        return result
    }

    /// The suite file's stamp (one `lstat`); nil when there is no plain file at its name: a
    /// link can be pointed elsewhere without any stamp changing.
    func version(of asked: String) -> ContainerVersion? {
        let suite = stored(asked)
        guard (try? DefaultsSuite.validate(suite)) != nil,
            let (stamp, isLink) = FileStamp.ofEntry(served.path(of: suite + ".plist")), !isLink
        else { return nil }
        return stamp.version
    }

    /// The property list to store for a Foundation object the scanner made.
    private static func propertyList(_ object: Any, key: String) throws(JarvisError) -> PropertyList {
        let decoded = try PropertyListValue.decode(object, path: key)
        do {
            return try PropertyList(decoded.value, path: key)
        } catch {
            throw JarvisError(.typeMismatch, error.message)
        }
    }

    // MARK: - Files

    private enum Contents {
        /// The entries, and the document they were read from (kept so a write needs no parse).
        case parsed(Entries, PropertyListDocument)
        case unreadable(String)
    }

    /// A parsed suite, sorted by key once per file version: a listing hands out the array
    /// itself (no copy) already in the order the hub shows, and a key is found by index.
    private struct Entries {
        var sorted: [ScannedEntry]
        var index: [String: Int]

        /// The entries with one key replaced, added (in its sorted place) or removed (nil).
        func replacing(_ key: String, with entry: ScannedEntry?) -> Entries {
            var copy = self
            if let position = index[key] {
                if let entry {
                    copy.sorted[position] = entry
                    return copy
                }
                copy.sorted.remove(at: position)
                copy.index[key] = nil
                for moved in position..<copy.sorted.count { copy.index[copy.sorted[moved].key] = moved }
                return copy
            }
            guard let entry else { return copy }
            var low = 0
            var high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle].key < key { low = middle + 1 } else { high = middle }
            }
            copy.sorted.insert(entry, at: low)
            for moved in low..<copy.sorted.count { copy.index[copy.sorted[moved].key] = moved }
            return copy
        }
    }

    /// A class: every `get` takes the suite from the cache, and a reference is one retain
    /// where a copy of the parsed contents was one for each of their parts.
    private final class CachedSuite: Sendable {
        let signature: FileStamp
        let contents: Contents
        /// The folder's change count when the file was last found plain and unchanged.
        let quietAt: UInt64?
        /// What the suite holds in memory: the file's bytes, its entries and the document's
        /// members (as large as the entries they were made from).
        let weight: Int

        convenience init(signature: FileStamp, contents: Contents, quietAt: UInt64? = nil) {
            let weight: Int
            switch contents {
            case .parsed(let entries, let document):
                weight = document.bytes.count + 2 * entries.sorted.reduce(0) { $0 + $1.weight }
            case .unreadable(let problem): weight = 64 + problem.utf8.count
            }
            self.init(signature: signature, contents: contents, quietAt: quietAt, weight: weight)
        }

        private init(signature: FileStamp, contents: Contents, quietAt: UInt64?, weight: Int) {
            self.signature = signature
            self.contents = contents
            self.quietAt = quietAt
            self.weight = weight
        }

        /// The same version of the file, found plain and unchanged at `quietAt`.
        func marked(_ quietAt: UInt64?) -> CachedSuite {
            quietAt == self.quietAt
                ? self : CachedSuite(signature: signature, contents: contents, quietAt: quietAt, weight: weight)
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
            if cache.withLock({ $0.set(suite, nil) }) { FreedMemory.giveBack() }
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
                contents = .parsed(try Self.sortedEntries(of: parsed, name: suite + ".plist"), parsed)
            } else {
                return nil
            }
        } catch {
            contents = .unreadable(error.message)
        }
        // Parsed after the look: a change in between moved the count, so the mark cannot hold.
        let (cached, release) = cache.withLock { cache -> (CachedSuite, Bool) in
            let cached = CachedSuite(signature: signature, contents: contents, quietAt: vouched)
            return (cached, cache.set(suite, cached))
        }
        if release { FreedMemory.giveBack() }
        return Loaded(suite: cached, isLink: isLink)
    }

    /// A parsed suite's entries, sorted by key and indexed.
    /// - Throws: ``JarvisError`` `.storage` when the file's value and the structures its data
    ///   holds (each counted every time it is decoded) would take more than the file's
    ///   ``ExpansionBudget``.
    private static func sortedEntries(of document: PropertyListDocument, name: String) throws(JarvisError) -> Entries {
        var budget = ExpansionBudget(fileSize: document.bytes.count)
        budget.charge(document.expandedSize)
        var sorted = entries(of: document.members, budget: &budget)
        guard !budget.isPassed else {
            throw JarvisError(
                .storage,
                "'\(name)' \(budget.excess(counting: "objects referred to many times count each time it is, data holding a property list or JSON each time it is decoded")); Jarvis does not read it"
            )
        }
        sorted.sort { $0.key < $1.key }
        var index: [String: Int] = [:]
        index.reserveCapacity(sorted.count)
        for (position, entry) in sorted.enumerated() { index[entry.key] = position }
        return Entries(sorted: sorted, index: index)
    }

    /// Converts a parsed suite, spreading a large one over the cores: the conversion is most
    /// of what a scan adds to decoding the file, and the agent's thread would wait for it.
    /// Data holding a structure is decoded after, one value after another against `budget`,
    /// the file's one budget, up to the value that passes it.
    private static func entries(of members: [PropertyList.Member], budget: inout ExpansionBudget) -> [ScannedEntry] {
        let count = members.count
        let chunks = count < 4096 ? 1 : min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        var entries: [ScannedEntry] = []
        if chunks == 1 {
            entries = convert(members[...])
        } else {
            let converted = Locked([[ScannedEntry]](repeating: [], count: chunks))
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let slice = members[(chunk * count / chunks)..<((chunk + 1) * count / chunks)]
                let result = convert(slice)
                converted.withLock { $0[chunk] = result }
            }
            entries.reserveCapacity(count)
            for result in converted.current { entries += result }
        }
        for position in entries.indices where !budget.isPassed {
            guard case .data = entries[position].value else { continue }
            entries[position] = DefaultsEntries.decodingData(entries[position], budget: &budget)
        }
        return entries
    }

    /// The entries of `members`, in their order, their data left as data.
    private static func convert(_ members: ArraySlice<PropertyList.Member>) -> [ScannedEntry] {
        var converted: [ScannedEntry] = []
        converted.reserveCapacity(members.count)
        for member in members {
            converted.append(DefaultsEntries.plainEntry(key: member.key, value: member.value, layer: .stored))
        }
        return converted
    }

    /// The largest suite file read: Apple's own stay far below it.
    static let maxSize = 64 << 20

    /// Reads and parses a suite's file afresh, through the served folder's one opening path;
    /// nil when it does not exist.
    /// - Throws: ``JarvisError`` `.storage` when it cannot be read (a FIFO, a device, a file
    ///   over the limit) or is not a dictionary plist.
    private func parse(_ suite: String) throws(JarvisError) -> PropertyListDocument? {
        try DefaultsSuite.validate(suite)
        guard let bytes = try served.read(suite + ".plist", limit: Self.maxSize).bytes else { return nil }
        return try Self.parse(bytes, name: suite + ".plist")
    }

    /// Parses a suite file's contents with Jarvis's own codec.
    /// - Throws: ``JarvisError`` `.storage` when it is not a dictionary plist, saying why.
    private static func parse(_ bytes: [UInt8], name: String) throws(JarvisError) -> PropertyListDocument {
        do {
            return try PropertyListDocument(bytes)
        } catch {
            throw JarvisError(.storage, message(error, name: name))
        }
    }

    /// What to tell a person about a suite file the codec refused.
    static func message(_ error: PropertyListError, name: String) -> String {
        switch error.code {
        case .duplicateKey:
            // Jarvis would keep one of two keys that are one name and lose the other: refuse the
            // suite without naming the key (it may be one the configuration hides).
            return
                "'\(name)' holds one key name twice in a dictionary (written the same, or in two Unicode spellings such as a composed ñ and n + U+0303, which Jarvis reads as one name), so neither could be read or written without losing the other; remove one of them with the app's own tools, Jarvis will not read or overwrite the file"
        case .unsupported where error.message.hasPrefix("the file holds"):
            return "'\(name)' \(error.message.dropFirst("the file ".count)); Jarvis will not overwrite it"
        case .damaged where error.message.hasPrefix("the binary property list is damaged: "):
            let detail = error.description.dropFirst("the binary property list is damaged: ".count)
            return
                "'\(name)' starts like a binary property list but is damaged (cut short or overwritten): \(detail); fix or remove the file, Jarvis will not overwrite it"
        default:
            return
                "'\(name)' is not a valid property list: \(error.description); fix or remove the file, Jarvis will not overwrite it"
        }
    }
}
