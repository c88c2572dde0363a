import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// Issue 27 item 1, in process: every rule kind compares names as lookups do, whatever the
/// Unicode spelling (NFC or NFD) of the rule, of the stored name and of the name asked for.
/// Real files in fresh folders, read by the real scanners through a real hub.
@Suite struct NameSpellingTests {
    enum Spelling: String, CaseIterable, Sendable {
        case nfc, nfd

        func callAsFunction(_ text: String) -> String {
            self == .nfc ? text.precomposedStringWithCanonicalMapping : text.decomposedStringWithCanonicalMapping
        }
    }

    /// Every combination of the rule's, the stored name's and the asked name's spelling.
    static let spellings: [(Spelling, Spelling, Spelling)] = Spelling.allCases.flatMap { rule in
        Spelling.allCases.flatMap { stored in Spelling.allCases.map { asked in (rule, stored, asked) } }
    }

    /// A JSON folder, a defaults folder and a secrets folder, with names in one spelling.
    struct Stores {
        let root: URL
        let json: URL
        let defaults: URL
        let secrets: URL

        init(stored: Spelling) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("jarvis-spelling-\(UUID().uuidString)")
            json = root.appendingPathComponent("json")
            defaults = root.appendingPathComponent("defaults")
            secrets = root.appendingPathComponent(stored("claves_señor"))
            for folder in [json, defaults, secrets] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let key = stored("contraseña_api")
            try Self.write(json, "cuentas.json", Data(#"{"\#(key)":"s3cret","theme":"dark"}"#.utf8))
            try Self.write(json, stored("contraseña.json"), Data(#"{"theme":"s3cret"}"#.utf8))
            try Self.write(
                defaults, "app.plist",
                try PropertyListSerialization.data(
                    fromPropertyList: [key: "s3cret", "theme": "dark"], format: .xml, options: 0))
            try Self.write(
                defaults, stored("datos_contraseña") + ".plist",
                try PropertyListSerialization.data(fromPropertyList: ["theme": "s3cret"], format: .xml, options: 0))
            try Self.write(secrets, key, Data("s3cret".utf8))
            try Self.write(secrets, "theme", Data("dark".utf8))
        }

        /// Writes a file under exactly these bytes of name (no layer normalises them).
        static func write(_ folder: URL, _ name: String, _ data: Data) throws {
            let path = folder.path + "/" + name
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
            defer { close(descriptor) }
            _ = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        }

        func hub(_ configuration: JarvisConfiguration, exclude: [GlobPattern] = []) -> JarvisHub {
            let hub = JarvisHub(configuration: configuration)
            hub.register(.jsonFiles(in: [json], exclude: exclude))
            hub.register(.defaults(folder: defaults))
            hub.register(SecretsScanner(folders: [secrets], systemKeyring: false))
            return hub
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// What a client can learn of the secret through `hub`: every answer that shows it.
    static func leaks(_ hub: JarvisHub, _ addresses: [PreferenceAddress]) -> [String] {
        var leaks: [String] = []
        for address in addresses {
            if let item = try? hub.get(address, reveal: true) {
                leaks.append("get \(address.container)/\(address.key): \(String(describing: item.value))")
            }
        }
        return leaks
    }

    /// The items a listing shows whose container or key holds `part` (compared composed).
    static func listed(_ hub: JarvisHub, naming part: String) throws -> [String] {
        let part = part.precomposedStringWithCanonicalMapping
        return try hub.list(ListQuery(reveal: true)).items.map {
            "\($0.address.scanner):\($0.address.container)/\($0.address.key)".precomposedStringWithCanonicalMapping
        }.filter { $0.contains(part) }
    }

    @Test(arguments: spellings) func aHiddenKeyIsHiddenInEverySpelling(
        rule: Spelling, stored: Spelling, asked: Spelling
    )
        throws
    {
        let stores = try Stores(stored: stored)
        defer { stores.remove() }
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        configuration.hide(keys: GlobPattern(rule("contraseña*")))
        let hub = stores.hub(configuration)
        let key = asked("contraseña_api")
        let addresses = [
            PreferenceAddress(scanner: "files", container: "cuentas.json", key: key),
            PreferenceAddress(scanner: "defaults", container: "app", key: key),
            PreferenceAddress(scanner: "secrets", container: stores.secrets.lastPathComponent, key: key),
        ]
        #expect(Self.leaks(hub, addresses) == [], "before a listing")
        #expect(try Self.listed(hub, naming: "/contraseña") == [])
        #expect(Self.leaks(hub, addresses) == [], "after a listing")
        for address in addresses {
            #expect(throws: JarvisError.self) { try hub.set(address, to: "stolen") }
            #expect(throws: JarvisError.self) { try hub.delete(address) }
        }
        #expect(Self.leaks(hub, addresses) == [], "after writes")
    }

    @Test(arguments: spellings) func aHiddenContainerIsHiddenInEverySpelling(
        rule: Spelling, stored: Spelling, asked: Spelling
    ) throws {
        let stores = try Stores(stored: stored)
        defer { stores.remove() }
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        configuration.hide(containers: GlobPattern(rule("*contraseña*")))
        configuration.hide(containers: GlobPattern(rule("claves_señor")))
        let hub = stores.hub(configuration)
        let addresses = [
            PreferenceAddress(scanner: "files", container: asked("contraseña.json"), key: "theme"),
            PreferenceAddress(scanner: "defaults", container: asked("datos_contraseña"), key: "theme"),
            PreferenceAddress(scanner: "secrets", container: asked("claves_señor"), key: "contraseña_api"),
        ]
        #expect(Self.leaks(hub, addresses) == [], "before a listing")
        let containers = try hub.containers().map(\.name)
        #expect(!containers.contains { $0.contains("contrase") || $0.contains("claves") }, "\(containers)")
        #expect(try Self.listed(hub, naming: ":contraseña") == [])
        #expect(try Self.listed(hub, naming: ":datos_contraseña") == [])
        #expect(try Self.listed(hub, naming: ":claves") == [])
        #expect(Self.leaks(hub, addresses) == [], "after a listing")
        for address in addresses {
            #expect(throws: JarvisError.self) { try hub.set(address, to: "stolen") }
        }
        #expect(Self.leaks(hub, addresses) == [], "after writes")
    }

    @Test(arguments: spellings) func includeRulesShowTheNameInEverySpelling(
        rule: Spelling, stored: Spelling, asked: Spelling
    ) throws {
        let stores = try Stores(stored: stored)
        defer { stores.remove() }
        var configuration = JarvisConfiguration.debug
        configuration.scanners["files"] = ScannerRules(
            includeContainers: [GlobPattern(rule("contraseña.json"))], includeKeys: [GlobPattern(rule("the?e"))])
        configuration.scanners["defaults"] = ScannerRules(includeKeys: [GlobPattern(rule("contraseña_[a-z]pi"))])
        let hub = stores.hub(configuration)
        #expect(
            try hub.get(PreferenceAddress(scanner: "files", container: asked("contraseña.json"), key: "theme")).value
                == "s3cret")
        #expect(
            try hub.get(PreferenceAddress(scanner: "defaults", container: "app", key: asked("contraseña_api"))).value
                == "s3cret")
        let listed = try hub.list().items.map { "\($0.address.scanner):\($0.address.container)/\($0.address.key)" }
        // files: the one included file's included key; defaults: the included key; secrets: both.
        #expect(listed.count == 4, "\(listed)")
        #expect(throws: JarvisError.self) {
            try hub.get(PreferenceAddress(scanner: "defaults", container: "app", key: "theme"))
        }
    }

    @Test(arguments: spellings) func anExcludedFileIsLeftOutInEverySpelling(
        rule: Spelling, stored: Spelling, asked: Spelling
    ) throws {
        let stores = try Stores(stored: stored)
        defer { stores.remove() }
        let hub = stores.hub(.debug, exclude: [GlobPattern(rule("contraseña*"))])
        let address = PreferenceAddress(scanner: "files", container: asked("contraseña.json"), key: "theme")
        #expect(Self.leaks(hub, [address]) == [], "before a listing")
        #expect(try hub.containers(scanner: "files").map(\.name) == ["cuentas.json"])
        #expect(try Self.listed(hub, naming: "files:").map { $0.hasPrefix("files:cuentas.json/") } == [true, true])
        #expect(Self.leaks(hub, [address]) == [], "after a listing")
        #expect(throws: JarvisError.self) { try hub.set(address, to: "stolen") }
    }

    @Test(arguments: spellings) func queriesAndCatalogsMatchInEverySpelling(
        rule: Spelling, stored: Spelling, asked: Spelling
    ) throws {
        let stores = try Stores(stored: stored)
        defer { stores.remove() }
        var configuration = JarvisConfiguration.debug
        configuration.catalog = [
            KeyDefinition(matching: GlobPattern(rule("contraseña_*")), in: "app", type: .string)
        ]
        let hub = stores.hub(configuration)
        let query = ListQuery(scanner: "defaults", key: GlobPattern(rule("*ña_api")))
        #expect(try hub.list(query).items.count == 1)
        // Declared in every spelling: not an orphan, and a number is refused.
        #expect(try hub.list(ListQuery(scanner: "defaults", undeclared: true)).items.map(\.address.key) == ["theme"])
        let address = PreferenceAddress(scanner: "defaults", container: "app", key: asked("contraseña_api"))
        #expect(throws: JarvisError.self) { try hub.set(address, to: 1) }
    }

    /// Files, suites and secrets are found in either spelling, on Linux (whose file systems
    /// tell spellings apart) as on Apple's volumes, and a write goes to the stored file.
    @Test(arguments: spellings) func storedNamesAreFoundInEverySpelling(
        rule: Spelling, stored: Spelling, asked: Spelling
    ) throws {
        let stores = try Stores(stored: stored)
        defer { stores.remove() }
        let hub = stores.hub(.debug)
        let addresses = [
            PreferenceAddress(scanner: "files", container: asked("contraseña.json"), key: "theme"),
            PreferenceAddress(scanner: "defaults", container: asked("datos_contraseña"), key: "theme"),
            PreferenceAddress(
                scanner: "secrets", container: stores.secrets.lastPathComponent, key: asked("contraseña_api")),
        ]
        for address in addresses {
            #expect(try hub.get(address).value == "s3cret" || hub.get(address).isMasked, "\(address)")
            try hub.set(address, to: "changed")
        }
        // Written into the stored files: no file of the other spelling was made.
        for folder in [stores.json, stores.defaults, stores.secrets] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(Set(names.map { $0.precomposedStringWithCanonicalMapping }).count == names.count, "\(names)")
        }
        #expect(try hub.get(addresses[0]).value == "changed" && hub.get(addresses[1]).value == "changed")
    }

    @Test func patternsMatchWhateverEitherSideSpelling() {
        for rule in Spelling.allCases {
            for text in Spelling.allCases {
                #expect(GlobPattern(rule("contraseña*")).matches(text("contraseña_api")))
                #expect(GlobPattern(rule("contrase?a")).matches(text("contraseña")))
                #expect(GlobPattern(rule("[ñ]")).matches(text("ñ")))
                #expect(GlobPattern(rule("*가*")).matches(text("한가위")))
                #expect(GlobPattern(rule("が?")).matches(text("がぎ")))
                #expect(GlobPattern(rule("señor")).matches(text("señor")))
                #expect(!GlobPattern(rule("señor")).matches(text("senor")))
            }
        }
    }
}
