import Foundation
import JarvisCore

/// The host's own defaults, read and written through `UserDefaults(suiteName:)` so that the
/// host's `UserDefaults` objects see an edit at once.
///
/// Suites are discovered from the files in the preferences folder, plus the suites named in
/// code and the standard suite; on Linux the process's unsaved writes are saved first, so a
/// suite the host just created has its file (see ``PreferencesFolder/savePendingWrites()``). A fresh `UserDefaults` is made per call: they are cheap, share
/// their state per suite within the process, and are not `Sendable` on Linux.
///
/// Layers: stored values come from `persistentDomain(forName:)`, which works for any suite on
/// Linux and Apple platforms. Registered defaults have no public per-suite accessor that works
/// on Linux (`volatileDomain(forName: UserDefaults.registrationDomain)` is empty there), and the
/// registration domain is shared by every `UserDefaults` in the process; so a registered key is
/// one that `dictionaryRepresentation()` shows but no stored domain in the search list holds.
struct UserDefaultsStore: DefaultsStore {
    let namedSuites: [String]
    let includeSystemDomains: Bool
    /// App Group ids served as suites, whose containers' preferences folders are watched too.
    var appGroups: [String] = []

    var info: ScannerInfo { ScannerInfo(displayName: "Defaults suites", isWritable: true) }

    /// The program's defaults: its domains on Apple platforms (named by the app's bundle id),
    /// the folder Foundation keeps them in elsewhere.
    var location: String? { Self.domainsPlace }

    /// One suite of the program: its domain and the app's bundle id on Apple platforms, its
    /// file elsewhere.
    func location(of suite: String) -> String? {
        #if canImport(Darwin)
            return "domain \(suite) of \(Self.domainsPlace)"
        #else
            return Self.domainsPlace + "/" + suite + ".plist"
        #endif
    }

    /// Where the program's domains are: the app (its bundle id, else its executable) on Apple
    /// platforms; Foundation's folder for them elsewhere (`$XDG_CONFIG_HOME`, else `~/.config`).
    private static var domainsPlace: String {
        #if canImport(Darwin)
            return Bundle.main.bundleIdentifier ?? Bundle.main.executablePath ?? ProcessInfo.processInfo.processName
        #else
            let environment = ProcessInfo.processInfo.environment
            if let folder = environment["XDG_CONFIG_HOME"], folder.hasPrefix("/") { return folder }
            return (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        #endif
    }

    func container(named name: String) throws -> ContainerInfo? {
        guard DefaultsSuite.isCreatable(name) else { return nil }
        return try containers().first { $0.name == name } ?? ContainerInfo(name, exists: false)
    }

    func containers() throws -> [ContainerInfo] {
        var names = Set(namedSuites + appGroups)
        names.insert(PreferencesFolder.standardSuiteName)
        // A suite the host wrote but Foundation has not saved has no file yet: without this, it
        // stays unlisted (and `jarvis get` finds no such container) until something saves it.
        PreferencesFolder.savePendingWrites()
        if let folder = PreferencesFolder.current(),
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        {
            for file in files where file.hasSuffix(".plist") && file.count > ".plist".count {
                // System domains are listed; the hub hides them (see `storedNames(suite:checkpoint:)`).
                names.insert(String(file.dropLast(".plist".count)))
            }
        }
        return names.sorted().map { ContainerInfo($0) }
    }

    func storedNames(suite: String, checkpoint: ChangeCheckpoint) -> StoredNames {
        StoredNames(isSystem: !includeSystemDomains && DefaultsSuite.isSystemDomain(suite))
    }

    func entries(in suite: String, keys: [String]?) throws -> [ScannedEntry] {
        let defaults = try Self.defaults(for: suite)
        // On Linux this re-reads the file when another process changed it; on Apple platforms
        // cfprefsd already keeps the object current and this is a no-op.
        _ = defaults.synchronize()
        let stored = defaults.persistentDomain(forName: suite) ?? [:]
        var shadowing = Set(stored.keys)
        shadowing.formUnion(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
        shadowing.formUnion(Self.keys(defaults.persistentDomain(forName: UserDefaults.globalDomain)))
        if suite != PreferencesFolder.standardSuiteName {
            // Apple platforms also search the app's own domain for a suite's keys.
            shadowing.formUnion(Self.keys(defaults.persistentDomain(forName: PreferencesFolder.standardSuiteName)))
        }
        let registered = defaults.dictionaryRepresentation().filter { !shadowing.contains($0.key) }
        return try DefaultsEntries.entries(stored: stored, registered: registered, keys: keys)
    }

    func storedObject(forKey key: String, in suite: String) throws -> Any? {
        let defaults = try Self.defaults(for: suite)
        _ = defaults.synchronize()
        return defaults.persistentDomain(forName: suite)?[key]
    }

    func setObject(_ object: Any?, forKey key: String, in suite: String) throws -> WriteResult {
        let defaults = try Self.defaults(for: suite)
        if let object {
            if PreferencesFolder.savesXML { try XMLPlistText.check(object, key: key, file: suite + ".plist") }
            defaults.set(object, forKey: key)
        } else {
            defaults.removeObject(forKey: key)
        }
        guard defaults.synchronize() else {
            throw JarvisError(
                .storage,
                "'\(key)' was changed in memory but suite '\(suite)' could not be saved; check that the preferences folder is writable"
            )
        }
        // From the suite's memory, which now holds the change: no file is read. Foundation
        // saves the file in its own time, so no version step is known.
        return WriteResult(entry: try entries(in: suite, keys: [key]).first)
    }

    private static func keys(_ domain: [String: Any]?) -> [String] {
        domain.map { Array($0.keys) } ?? []
    }

    private static func defaults(for suite: String) throws(JarvisError) -> UserDefaults {
        try DefaultsSuite.validate(suite)
        // Apple platforms refuse the app's own bundle identifier as a suite name.
        if suite == PreferencesFolder.standardSuiteName { return .standard }
        guard let defaults = UserDefaults(suiteName: suite) else {
            throw JarvisError(
                .invalidParams,
                "'\(suite)' cannot be opened as a defaults suite (NSGlobalDomain and the app's own identifier are refused as suite names)"
            )
        }
        return defaults
    }
}
