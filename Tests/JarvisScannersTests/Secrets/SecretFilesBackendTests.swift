import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// The secret files backend on real folders, through the real hub so masking applies.
final class SecretFilesBackendTests {
    let root: URL
    let folder: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jarvis-secrets-\(UUID().uuidString.prefix(8))")
        folder = root.appendingPathComponent("app-secrets")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func hub(_ configuration: JarvisConfiguration = .debug, folders: [URL]? = nil) -> JarvisHub {
        let hub = JarvisHub(configuration: configuration)
        hub.register(SecretsScanner(folders: folders ?? [folder], systemKeyring: false))
        return hub
    }

    func write(_ name: String, _ bytes: [UInt8], mode: Int = 0o600) throws {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func mode(_ name: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "secrets", container: "app-secrets", key: key)
    }

    @Test func valuesAreMaskedUnlessRevealIsAllowedAndAsked() throws {
        try write("db_password", Array("hunter2-hunter2".utf8))
        let item = try hub().get(address("db_password"))
        #expect(item.value == nil)
        #expect(item.mask?.length == 15)
        #expect(item.type == .string)
        #expect(throws: JarvisError.self) { try hub().get(address("db_password"), reveal: true) }

        var allowing = JarvisConfiguration.debug
        allowing.allowsReveal = true
        #expect(try hub(allowing).get(address("db_password"), reveal: true).value == .string("hunter2-hunter2"))
        #expect(try hub(allowing).get(address("db_password")).value == nil)
        let listed = try hub(allowing).list(ListQuery(reveal: true))
        #expect(listed.items.map(\.value) == [.string("hunter2-hunter2")])

        var production = JarvisConfiguration.production
        production.allowsReveal = true
        #expect(throws: JarvisError.self) { try production.validate() }
        do {
            _ = try JarvisHub(configuration: .production).also {
                $0.register(SecretsScanner(folders: [folder], systemKeyring: false))
            }
            .get(address("db_password"), reveal: true)
            Issue.record("production revealed a secret")
        } catch {
            #expect(error.code == .unauthorized)
            #expect(!error.message.contains("hunter2"))
        }
    }

    @Test func nonUTF8FileIsData() throws {
        try write("keyfile", [0xFF, 0xFE, 0x00, 0x80])
        var allowing = JarvisConfiguration.debug
        allowing.allowsReveal = true
        let item = try hub(allowing).get(address("keyfile"), reveal: true)
        #expect(item.type == .data)
        #expect(item.value == .data(Data([0xFF, 0xFE, 0x00, 0x80])))
        #expect(try hub().get(address("keyfile")).mask?.length == 4)
    }

    @Test func anAtomicWriteIsOwnerOnlyWhateverItReplacedAndLeavesNoTemporaryFile() throws {
        try write("token", Array("old".utf8), mode: 0o644)
        let hub = hub()
        let stored = try hub.set(address("token"), to: .string("new-value"))
        #expect(stored.value == nil)
        #expect(try String(contentsOf: folder.appendingPathComponent("token"), encoding: .utf8) == "new-value")
        // A secret Jarvis writes is 0600, even over a world-readable file.
        #expect(try mode("token") == 0o600)

        try hub.set(address("fresh"), to: .data(Data([1, 2, 3])))
        #expect(try mode("fresh") == 0o600)
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("fresh").path) == Data([1, 2, 3]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fresh", "token"])
    }

    @Test func deleteRemovesTheFile() throws {
        try write("token", Array("x".utf8))
        let hub = hub()
        try hub.delete(address("token"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("token").path))
        #expect(throws: JarvisError.self) { try hub.delete(address("token")) }
    }

    @Test func refusesNonSecretValuesAndBadNames() throws {
        let hub = hub()
        #expect { try hub.set(address("count"), to: .integer(3)) } throws: {
            ($0 as? JarvisError)?.code == .typeMismatch
        }
        #expect(throws: JarvisError.self) { try hub.set(address(".hidden"), to: .string("x")) }
        #expect(throws: JarvisError.self) { try hub.set(address("a/b"), to: .string("x")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func kubernetesLinkFarmIsFollowedButDotfilesAreSkipped() throws {
        // The layout kubelet writes: ..<timestamp>/<key>, ..data -> ..<timestamp>, <key> -> ..data/<key>.
        let stamp = folder.appendingPathComponent("..2024_01_15_10_00_00.123")
        try FileManager.default.createDirectory(at: stamp, withIntermediateDirectories: true)
        try Data("k8s-value".utf8).write(to: stamp.appendingPathComponent("api_key"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("..data").path, withDestinationPath: stamp.lastPathComponent)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("api_key").path, withDestinationPath: "..data/api_key")
        try write(".env", Array("skip".utf8))

        var allowing = JarvisConfiguration.debug
        allowing.allowsReveal = true
        let items = try hub(allowing).list(ListQuery(reveal: true)).items
        #expect(items.map(\.address.key) == ["api_key"])
        #expect(items.first?.value == .string("k8s-value"))
        // The farm's link stays inside the folder: followed for writing too, the link kept.
        #expect(items.first?.isWritable == true)
        try hub().set(address("api_key"), to: .string("changed"))
        #expect(try String(contentsOf: stamp.appendingPathComponent("api_key"), encoding: .utf8) == "changed")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("api_key").path)
                == "..data/api_key")
    }

    @Test func foldersWithTheSameNameStayApartAndMissingFoldersAreProblems() throws {
        let other = root.appendingPathComponent("b").appendingPathComponent("app-secrets")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("two".utf8).write(to: other.appendingPathComponent("k"))
        let missing = root.appendingPathComponent("gone")
        let hub = hub(folders: [folder, other, missing])
        let names = try hub.containers(scanner: "secrets").map(\.name)
        #expect(names == ["app-secrets", "app-secrets@files", "gone"])
        let result = try hub.list()
        #expect(result.items.map(\.address.container) == ["app-secrets@files"])
        #expect(result.problems.map(\.name) == ["gone"])
        try hub.set(PreferenceAddress(scanner: "secrets", container: "app-secrets@files", key: "k"), to: .string("2"))
        #expect(FileManager.default.contents(atPath: other.appendingPathComponent("k").path) == Data("2".utf8))
        #expect {
            try hub.set(PreferenceAddress(scanner: "secrets", container: "new", key: "k"), to: .string("x"))
        } throws: {
            ($0 as? JarvisError)?.code == .notFound
        }
    }

    @Test func scannerWithoutBackendsIsUnavailable() {
        let scanner = SecretsScanner(folders: [], systemKeyring: false)
        #expect(scanner.info.unavailableReason != nil)
        #expect(scanner.info.isSecret)
        #expect(SecretsScanner.secrets(folders: [folder]).info.unavailableReason == nil)
    }

    /// Naming folders serves those folders alone: a headless service that asks for its secret
    /// files gets no desktop keyring (and no D-Bus problem in every listing) unless it asks.
    @Test func foldersAloneLeaveTheKeyringOut() {
        // On Linux the folders alone; Apple platforms keep the process's own Keychain.
        let alone = SecretsScanner.secrets(folders: [folder]).backends.map(\.name)
        #expect(alone == SecretsScanner.platformBackends(secretService: false).map(\.name) + ["files"])
        #if os(Linux)
            #expect(alone == ["files"])
        #endif
        let both = SecretsScanner.secrets(folders: [folder], secretService: true).backends.map(\.name)
        #expect(both == SecretsScanner.platformBackends(secretService: true).map(\.name) + ["files"])
        #expect(
            SecretsScanner.secrets().backends.map(\.name)
                == SecretsScanner.platformBackends(secretService: true).map(\.name))
    }

    /// A set replaces the file from its stamp alone: the old contents are never read, so even
    /// a file over the size Jarvis reads is replaced, and the answer is what was written.
    @Test func aSetReplacesASecretFileWithoutReadingIt() throws {
        try write("huge", [UInt8](repeating: 0x41, count: SecretFilesBackend.maxSize + 1))
        let item = try hub().set(address("huge"), to: "small")
        #expect(item.mask?.length == 5 && item.isWritable)
        #expect(try String(contentsOf: folder.appendingPathComponent("huge"), encoding: .utf8) == "small")
        #expect(try mode("huge") == 0o600)
    }
}

extension JarvisHub {
    fileprivate func also(_ body: (JarvisHub) -> Void) -> JarvisHub {
        body(self)
        return self
    }
}
