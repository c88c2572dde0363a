import Foundation
import JarvisCore

/// Where a ``DefaultsScanner`` keeps its suites: the host's own `UserDefaults`, or a folder
/// of plist files for a program that does not embed the SDK.
///
/// Stores deal in Foundation property-list objects; turning them into entries and edited
/// values back into objects is shared, in ``DefaultsEntries``, so both backends show and
/// store values identically.
protocol DefaultsStore: Sendable {
    /// How the scanner presents itself with this store.
    var info: ScannerInfo { get }

    /// Where the store's suites live, the same across runs (``PreferenceScanner/location``).
    var location: String? { get }

    /// Where one suite lives, the same across runs (``PreferenceScanner/location(of:)``).
    func location(of suite: String) -> String?

    /// The suites that exist now.
    func containers() throws -> [ContainerInfo]

    /// One suite: the existing one, a new one a write would create, or nil for a name that
    /// cannot be a suite (or a system domain the store does not show).
    func container(named name: String) throws -> ContainerInfo?

    /// The entries of a suite: stored values, then registered defaults not shadowed by them.
    /// `keys`, when given, limits the work to those keys.
    func entries(in suite: String, keys: [String]?) throws -> [ScannedEntry]

    /// One key of a suite, as ``entries(in:keys:)`` with that key alone gives it.
    func entry(_ key: String, in suite: String) throws -> ScannedEntry?

    /// One key of a suite as ``entry(_:in:)`` gives it, when the store knows it from memory
    /// without looking at storage; nil otherwise (see
    /// ``PreferenceScanner/readFromMemory(key:in:checkpoint:)``).
    func entryInMemory(_ key: String, in suite: String, checkpoint: ChangeCheckpoint) -> ScannedEntry?

    /// The object stored for a key right now, read fresh; nil when none is stored.
    func storedObject(forKey key: String, in suite: String) throws -> Any?

    /// Stores `object` for `key`, or removes the key when `object` is nil; returns once on disk.
    /// - Returns: the key's entry now, as ``entries(in:keys:)`` would give it (a registered
    ///   default after a removal, or nil), and the suite's version step when the store knows it.
    @discardableResult
    func setObject(_ object: Any?, forKey key: String, in suite: String) throws -> WriteResult

    /// The suite's version now (``PreferenceScanner/version(of:)``); nil when unknown.
    func version(of suite: String) -> ContainerVersion?

    /// Where changes show while a client watches (see ``PreferenceScanner/watchTargets()``).
    func watchTargets() -> [WatchTarget]

    /// The suites stored at a changed path inside a watched folder; nil when unknown.
    func containers(changedAt path: String) -> [String]?

    /// What a suite name really opens (link target, case, Apple's own domain); see ``StoredNames``.
    /// `checkpoint` as for ``PreferenceScanner/storedNames(container:key:checkpoint:)``.
    func storedNames(suite: String, checkpoint: ChangeCheckpoint) -> StoredNames
}

extension DefaultsStore {
    /// Nothing known from memory alone: every key is read from storage.
    func entryInMemory(_ key: String, in suite: String, checkpoint: ChangeCheckpoint) -> ScannedEntry? { nil }

    /// Unknown: a watched suite is read to find whether it changed.
    func version(of suite: String) -> ContainerVersion? { nil }
}

/// Suite names: which are valid, and which belong to Apple and are hidden by default.
enum DefaultsSuite {
    /// Whether a suite is one of Apple's system domains, hidden unless asked for. Compared
    /// without case: on a case-insensitive volume `COM.APPLE.dock` opens `com.apple.dock`.
    static func isSystemDomain(_ name: String) -> Bool {
        // Asked on every read: an ASCII name (nearly every suite) is compared folding ASCII
        // case byte by byte; any other is lower-cased first (which allocates), and folding
        // then changes nothing. Both agree for ASCII.
        var name = name.containsByte(where: { $0 >= 0x80 }) ? name.lowercased() : name
        return name.withUTF8 { bytes in
            startsFoldingCase(bytes, "com.apple.") || startsFoldingCase(bytes, ".globalpreferences")
                || startsFoldingCase(bytes, "nsglobaldomain", whole: true)
                || startsFoldingCase(bytes, "apple global domain", whole: true)
        }
    }

    /// Whether `bytes` start with (or, `whole`, are) the lower-case ASCII `prefix`, ignoring
    /// ASCII case.
    private static func startsFoldingCase(
        _ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, whole: Bool = false
    ) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard whole ? bytes.count == count : bytes.count >= count else { return false }
        for index in 0..<count {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            if byte != prefix.utf8Start[index] { return false }
        }
        return true
    }

    /// The suite whose file is `path`, when `path` is a `<suite>.plist` directly in `folder`;
    /// none for any other file in `folder`, and nil for a path outside it.
    static func suite(at path: String, in folder: URL) -> [String]? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let parent = String(path[..<slash])
        // Called for every file event in the folder: plain string checks first, and URL
        // standardization only when the folder was spelled another way.
        guard
            parent == folder.path
                || URL(fileURLWithPath: parent).standardizedFileURL.path == folder.standardizedFileURL.path
        else { return nil }
        // Any other file in the folder (a temporary file of an atomic write, a lock, an
        // editor's backup) is no suite: it must cause no reads at all.
        let file = path[path.index(after: slash)...]
        guard file.hasSuffix(".plist"), file.count > ".plist".count else { return [] }
        return [String(file.dropLast(".plist".count))]
    }

    /// Whether a name can be a suite (and so may be created). Apple's own domains can be
    /// too: the hub hides them, as if absent, unless the configuration includes them.
    static func isCreatable(_ name: String) -> Bool {
        (try? validate(name)) != nil
    }

    /// Rejects names that cannot be a suite or would escape the preferences folder.
    /// - Throws: ``JarvisError`` `.invalidParams`.
    static func validate(_ name: String) throws(JarvisError) {
        // Byte checks: Foundation's `contains` of a string goes through CFString search, a
        // cost paid twice on every `get`.
        guard !name.isEmpty, name != ".", name != "..",
            !name.containsByte(where: { $0 == UInt8(ascii: "/") || $0 == 0 })
        else {
            throw JarvisError(
                .invalidParams, "'\(name)' is not a valid suite name; use a name like com.example.app without '/'")
        }
    }
}

/// Turns stored property-list objects into entries, and edited values back into objects.
enum DefaultsEntries {
    /// What the structures decoded from one suite's data may take together when the suite
    /// comes from `UserDefaults` (whose file Jarvis does not see): 64 MiB.
    static let objectSuiteBudget = 64 << 20

    /// Entries for stored and registered objects, limited to `keys` when given.
    /// - Throws: ``JarvisError`` `.typeMismatch` when a stored object is not a property-list
    ///   type; `.storage` when the structures its data holds would take more than
    ///   ``objectSuiteBudget`` together (each counted every time it is decoded).
    static func entries(stored: [String: Any], registered: [String: Any], keys: [String]?) throws(JarvisError)
        -> [ScannedEntry]
    {
        var result: [ScannedEntry] = []
        let wanted = keys.map(Set.init)
        var budget = ExpansionBudget(limit: objectSuiteBudget)
        for (key, object) in stored where wanted?.contains(key) ?? true {
            result.append(try entry(key: key, object: object, layer: .stored, budget: &budget))
        }
        for (key, object) in registered where stored[key] == nil && (wanted?.contains(key) ?? true) {
            result.append(try entry(key: key, object: object, layer: .registered, budget: &budget))
        }
        guard !budget.isPassed else {
            throw JarvisError(
                .storage,
                "the suite's data values \(budget.excess(counting: "each time one holding a property list or JSON is decoded")); Jarvis does not read it"
            )
        }
        return result
    }

    /// One entry; data holding a Codable structure is shown as that structure.
    static func entry(key: String, object: Any, layer: ValueLayer) throws(JarvisError) -> ScannedEntry {
        var budget = ExpansionBudget(limit: objectSuiteBudget)
        return try entry(key: key, object: object, layer: layer, budget: &budget)
    }

    private static func entry(key: String, object: Any, layer: ValueLayer, budget: inout ExpansionBudget)
        throws(JarvisError) -> ScannedEntry
    {
        let decoded = try PropertyListValue.decode(object, path: key)
        // An inexact value must never be written back changed.
        return decodingData(
            ScannedEntry(
                key: key, value: decoded.value, layer: layer, isWritable: decoded.isExact, isExact: decoded.isExact),
            budget: &budget)
    }

    /// One entry from a value Jarvis's own codec read (a suite file); data holding a Codable
    /// structure is shown as that structure, as ``entry(key:object:layer:)`` shows it.
    /// The data may take what ``ExpansionBudget`` allows data of its size.
    static func entry(key: String, value: PropertyList, layer: ValueLayer) -> ScannedEntry {
        let entry = plainEntry(key: key, value: value, layer: layer)
        guard case .data(let data) = entry.value else { return entry }
        var budget = ExpansionBudget(fileSize: data.count)
        return decodingData(entry, budget: &budget)
    }

    /// One entry from a value Jarvis's own codec read, its data left as data
    /// (``decodingData(_:budget:)`` decodes it).
    static func plainEntry(key: String, value: PropertyList, layer: ValueLayer) -> ScannedEntry {
        let (decoded, isExact) = value.preferenceValue
        // An inexact value (a keyed archiver's UID) must never be written back changed.
        return ScannedEntry(key: key, value: decoded, layer: layer, isWritable: isExact, isExact: isExact)
    }

    /// The entry with its data shown as the structure it holds, when it holds one and that
    /// fits what is left of `budget` (charged for it; past it, the entry as it was and the
    /// budget ``ExpansionBudget/isPassed``).
    static func decodingData(_ entry: ScannedEntry, budget: inout ExpansionBudget) -> ScannedEntry {
        guard case .data(let data) = entry.value, entry.isExact, entry.encoding == nil,
            let (value, encoding) = EncodedData.decode(data, budget: &budget)
        else { return entry }
        return ScannedEntry(key: entry.key, value: value, layer: entry.layer, encoding: encoding)
    }

    /// The object to store for a requested value, encoded back into data when it was read
    /// from JSON or property-list data. Data sent as data replaces the bytes as they are.
    static func object(for value: PreferenceValue, encoding: ValueEncoding?, current: Any?, key: String)
        throws(JarvisError) -> Any
    {
        if let encoding, value.type != .data {
            return try EncodedData.encode(value, as: encoding, current: current, key: key)
        }
        return try PropertyListValue.encode(value, path: key)
    }
}

extension DefaultsStore {
    /// The key from ``entries(in:keys:)``, for stores with no quicker way to find one.
    func entry(_ key: String, in suite: String) throws -> ScannedEntry? {
        try entries(in: suite, keys: [key]).first { $0.key == key }
    }
}
