import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// UserDefaults are process-global (registered defaults especially), so these tests run one
/// at a time and each uses suites and keys with a fresh UUID, removing its files afterwards.
///
/// On Linux the suites live in the folder swift-corelibs-foundation fixed when the process
/// started (`$XDG_CONFIG_HOME` or `~/.config`); run `XDG_CONFIG_HOME=$(mktemp -d) swift test`
/// to keep them out of the home folder. A `setenv` here would not move them.
@Suite(.serialized) final class UserDefaultsStoreTests {
    private var suites: [String] = []
    private let scanner = DefaultsScanner.defaults()

    deinit {
        for suite in suites {
            UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
            if let folder = PreferencesFolder.current() {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(suite + ".plist"))
            }
        }
    }

    private func makeSuite(_ prefix: String = "jarvis-test-") -> (name: String, host: UserDefaults) {
        let name = prefix + UUID().uuidString
        suites.append(name)
        return (name, UserDefaults(suiteName: name) ?? .standard)
    }

    private func entries(_ suite: String) throws -> [ScannedEntry] {
        try scanner.read(ReadRequest(container: suite))
    }

    @Test func discoversFolderFilesNamedSuitesAndTheStandardSuite() throws {
        let folder = try #require(PreferencesFolder.current())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let onDisk = makeSuite().name
        let system = makeSuite("com.apple.jarvis-test-").name
        let data = try PropertyListSerialization.data(fromPropertyList: ["found": "yes"], format: .xml, options: 0)
        try data.write(to: folder.appendingPathComponent(onDisk + ".plist"))
        try data.write(to: folder.appendingPathComponent(system + ".plist"))
        let named = "jarvis-test-named-" + UUID().uuidString

        // Apple's domains are hidden by the hub, as if absent, unless asked for.
        let hub = JarvisHub()
        hub.register(DefaultsScanner.defaults(suites: [named]))
        let names = try hub.containers().map(\.name)
        #expect(names.contains(onDisk))
        #expect(names.contains(named))
        #expect(names.contains(PreferencesFolder.standardSuiteName))
        #expect(!names.contains(system))
        #expect(DefaultsScanner.defaults().storedNames(container: system, key: nil).isSystem)
        #expect(!DefaultsScanner.defaults(includeSystemDomains: true).storedNames(container: system, key: nil).isSystem)
        var including = JarvisConfiguration.debug
        including.includesSystemContainers = true
        try hub.update(configuration: including)
        #expect(try hub.containers().map(\.name).contains(system))
        #expect(try entries(onDisk)[key: "found"]?.value == "yes")
    }

    @Test func hostSeesAWriteAtOnceAndItIsOnDisk() throws {
        let (suite, host) = makeSuite()
        try scanner.write(WriteRequest(container: suite, key: "greeting", change: .set("hello")))
        #expect(host.string(forKey: "greeting") == "hello")
        let file = try #require(PreferencesFolder.current()).appendingPathComponent(suite + ".plist")
        let onDisk =
            try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: nil) as? [String: Any]
        #expect(onDisk?["greeting"] as? String == "hello")

        try scanner.write(WriteRequest(container: suite, key: "greeting", change: .delete))
        #expect(host.object(forKey: "greeting") == nil)
    }

    @Test func everyTypeRoundTripsThroughUserDefaults() throws {
        let (suite, host) = makeSuite()
        guard case .dictionary(let values) = everyType else { return }
        for (key, value) in values {
            try scanner.write(WriteRequest(container: suite, key: key, change: .set(value)))
        }
        let read = try entries(suite).filter { $0.layer == .stored }
        #expect(read.count == values.count)
        for (key, value) in values {
            #expect(read[key: key]?.value == value, "\(key)")
        }
        // The host reads the same kinds back.
        #expect(host.object(forKey: "true") as? Bool == true)
        #expect(host.object(forKey: "integer") as? Int == 1)
        #expect(host.object(forKey: "real") as? Double == 1.0)
    }

    @Test func boolIntegerAndRealSurviveTheFile() throws {
        let (suite, _) = makeSuite()
        try scanner.write(WriteRequest(container: suite, key: "flag", change: .set(true)))
        try scanner.write(WriteRequest(container: suite, key: "one", change: .set(1)))
        try scanner.write(WriteRequest(container: suite, key: "onePointZero", change: .set(1.0)))
        let file = try #require(PreferencesFolder.current()).appendingPathComponent(suite + ".plist")
        let stored = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: nil)
        let decoded = try PropertyListValue.decode(stored, path: "")
        #expect(decoded.value == ["flag": true, "one": 1, "onePointZero": 1.0])
        let read = try entries(suite)
        #expect(read[key: "flag"]?.value == .boolean(true))
        #expect(read[key: "one"]?.value == .integer(1))
        #expect(read[key: "onePointZero"]?.value == .real(1.0))
    }

    @Test func registeredDefaultsAreALayerBelowStoredValues() throws {
        let (suite, host) = makeSuite()
        let key = "jarvis-test-registered-" + UUID().uuidString
        host.register(defaults: [key: "default"])
        #expect(try entries(suite)[key: key] == ScannedEntry(key: key, value: "default", layer: .registered))

        try scanner.write(WriteRequest(container: suite, key: key, change: .set("mine")))
        #expect(try entries(suite)[key: key] == ScannedEntry(key: key, value: "mine", layer: .stored))
        #expect(host.string(forKey: key) == "mine")

        try scanner.write(WriteRequest(container: suite, key: key, change: .delete))
        #expect(try entries(suite)[key: key]?.layer == .registered)
        #expect(host.string(forKey: key) == "default")
    }

    @Test func anotherProcessesChangeIsPickedUp() throws {
        let (suite, host) = makeSuite()
        host.set(1, forKey: "count")
        host.synchronize()
        #expect(try entries(suite)[key: "count"]?.value == 1)
        let file = try #require(PreferencesFolder.current()).appendingPathComponent(suite + ".plist")
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["count": 2, "added": "elsewhere"], format: .xml, options: 0)
        try data.write(to: file)
        let read = try entries(suite)
        #expect(read[key: "count"]?.value == 2)
        #expect(read[key: "added"]?.value == "elsewhere")
    }

    @Test func codableDataIsShownAsStructureAndWrittenBackForTheHost() throws {
        struct Settings: Codable, Equatable {
            var theme: String
            var fontSize: Double
            var notifications: Bool
        }
        let (suite, host) = makeSuite()
        host.set(
            try JSONEncoder().encode(Settings(theme: "dark", fontSize: 12.5, notifications: true)), forKey: "settings")
        let hub = JarvisHub()
        hub.register(scanner)
        let address = PreferenceAddress(scanner: "defaults", container: suite, key: "settings")

        let item = try hub.get(address)
        #expect(item.encoding == .json)
        #expect(item.value == ["theme": "dark", "fontSize": 12.5, "notifications": true])

        try hub.set(address, to: ["theme": "light", "fontSize": 14.0, "notifications": false])
        let data = try #require(host.data(forKey: "settings"))
        #expect(
            try JSONDecoder().decode(Settings.self, from: data)
                == Settings(theme: "light", fontSize: 14, notifications: false))
        #expect(try hub.get(address).value == ["theme": "light", "fontSize": 14.0, "notifications": false])
    }

    /// Where UserDefaults saves XML (swift-corelibs-foundation), a character XML 1.0 cannot
    /// hold is refused by name instead of written raw into the suite's file.
    @Test func xmlIllegalCharactersAreRefusedWhereSuitesAreXML() throws {
        let (suite, _) = makeSuite()
        let scanner = DefaultsScanner.defaults(suites: [suite])
        let write = { try scanner.write(WriteRequest(container: suite, key: "title", change: .set("bell\u{7}"))) }
        if PreferencesFolder.savesXML {
            let error = #expect(throws: JarvisError.self) { try write() }
            #expect(error?.message.contains("XML 1.0 cannot hold") == true)
        } else {
            try write()
        }
    }

    @Test func hugeUnsignedIntegersKeepTheirDigits() throws {
        let (suite, host) = makeSuite()
        host.set(UInt64.max, forKey: "big")
        let entry = try #require(try entries(suite)[key: "big"])
        #expect(entry.value == .integer(decimal: "18446744073709551615"))
        #expect(entry.isWritable)
    }
}
