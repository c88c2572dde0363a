import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// The one symbolic-link policy, tried as an attacker would on each file-backed scanner:
/// links inside are followed, links outside are read-only, and hide rules judge the target.
@Suite struct ServedFolderTests {
    let folder: TemporaryFolder
    let outside: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        outside = try TemporaryFolder()
    }

    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: folder.file(name).path, withDestinationPath: target)
    }

    func hub(_ scanner: any PreferenceScanner, hiding containers: [GlobPattern] = [], keys: [GlobPattern] = [])
        throws -> JarvisHub
    {
        var configuration = JarvisConfiguration.debug
        for pattern in containers { configuration.hide(containers: pattern) }
        for pattern in keys { configuration.hide(keys: pattern) }
        let hub = JarvisHub(configuration: configuration)
        hub.register(scanner)
        return hub
    }

    @Test func placesInsideOutsideAndMissing() throws {
        try Data("{}".utf8).write(to: folder.file("app.json"))
        try Data("{}".utf8).write(to: outside.file("far.json"))
        try link("inside.json", to: "app.json")
        try link("escape.json", to: outside.file("far.json").path)
        try link("dotdot.json", to: "../" + outside.url.lastPathComponent + "/far.json")
        try link("dangling.json", to: "nowhere.json")
        let served = ServedFolder(folder.url)
        #expect(served.place(of: "app.json") == .inside("app.json"))
        #expect(served.alias(of: "app.json") == nil)
        #expect(served.alias(of: "inside.json") == "app.json")
        #expect(served.leadsOutside("escape.json"))
        #expect(served.leadsOutside("dotdot.json"))
        #expect(served.place(of: "dangling.json") == .missing)
        let error = #expect(throws: JarvisError.self) { try served.writableSlot(of: "escape.json", container: "x") }
        #expect(error?.code == .readOnly)
        #expect(error?.message.contains("outside the served folder") == true)
        #expect(!ServedFolder(folder.url, ignoresCase: nil).ignoresCase || VolumeCase.ignoresCase(at: folder.url.path))
    }

    // MARK: - --defaults-dir

    @Test func defaultsFolderFollowsTheOnePolicy() throws {
        try folder.writePlist("app.plist", ["a": 1])
        try folder.writePlist("prod.plist", ["password": "hunter2"])
        try outside.writePlist("far.plist", ["far": "away"])
        try link("linked.plist", to: "app.plist")
        try link("current.plist", to: "prod.plist")
        try link("escape.plist", to: outside.file("far.plist").path)
        let hub = try hub(DefaultsScanner.defaults(folder: folder.url), hiding: ["prod"])
        let address = { (suite: String, key: String) in
            PreferenceAddress(scanner: "defaults", container: suite, key: key)
        }

        // A link to a hidden suite is hidden too, on every method.
        #expect(try hub.containers().map(\.name) == ["app", "escape", "linked"])
        #expect(try hub.list().items.allSatisfy { $0.address.container != "current" })
        #expect(throws: JarvisError.self) { try hub.get(address("current", "password")) }
        #expect(throws: JarvisError.self) { try hub.set(address("current", "password"), to: "owned") }
        #expect(try folder.readPlist("prod.plist").object as? [String: String] == ["password": "hunter2"])

        // A link inside is followed: written through, the link kept.
        #expect(try hub.set(address("linked", "b"), to: 2).value == 2)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("linked.plist").path) == "app.plist")
        #expect((try folder.readPlist("app.plist").object as? [String: Int])?["b"] == 2)

        // A link outside is listed read-only and never written through.
        #expect(try hub.get(address("escape", "far")).value == "away")
        #expect(try hub.get(address("escape", "far")).isWritable == false)
        #expect(try hub.containers().first { $0.name == "escape" }?.isWritable == false)
        let refused = #expect(throws: JarvisError.self) { try hub.set(address("escape", "far"), to: "here") }
        #expect(refused?.code == .readOnly)
        #expect(throws: JarvisError.self) { try hub.delete(address("escape", "far")) }
        #expect(try outside.readPlist("far.plist").object as? [String: String] == ["far": "away"])
        // Even straight to the scanner, past the hub.
        let direct = #expect(throws: JarvisError.self) {
            try DefaultsScanner.defaults(folder: folder.url).write(
                WriteRequest(container: "escape", key: "far", change: .set("here")))
        }
        #expect(direct?.message.contains("never writes through") == true)
    }

    @Test func hideRulesIgnoreCaseWhereTheVolumeDoes() throws {
        try folder.writePlist("prod.plist", ["password": "hunter2"])
        let insensitive = DefaultsScanner(
            store: PlistFolderStore(folder: folder.url, includeSystemDomains: false, ignoresCase: true))
        let hidden = try hub(insensitive, hiding: ["PROD"])
        #expect(try hidden.containers().isEmpty)
        #expect(throws: JarvisError.self) {
            try hidden.get(PreferenceAddress(scanner: "defaults", container: "prod", key: "password"))
        }
        let sensitive = DefaultsScanner(
            store: PlistFolderStore(folder: folder.url, includeSystemDomains: false, ignoresCase: false))
        #expect(try hub(sensitive, hiding: ["PROD"]).containers().map(\.name) == ["prod"])
    }

    // MARK: - --files

    @Test func jsonFilesFollowTheOnePolicy() throws {
        try Data(#"{"a":1}"#.utf8).write(to: folder.file("app.json"))
        try Data(#"{"password":"hunter2"}"#.utf8).write(to: folder.file("prod.json"))
        try Data(#"{"far":"away"}"#.utf8).write(to: outside.file("far.json"))
        try link("linked.json", to: "app.json")
        try link("current.json", to: "prod.json")
        try link("escape.json", to: outside.file("far.json").path)
        let hub = try hub(JSONFilesScanner.jsonFiles(in: [folder.url]), hiding: ["prod.json"])
        let address = { (file: String, key: String) in PreferenceAddress(scanner: "files", container: file, key: key) }

        #expect(try hub.containers().map(\.name) == ["app.json", "escape.json", "linked.json"])
        #expect(throws: JarvisError.self) { try hub.get(address("current.json", "password")) }
        #expect(throws: JarvisError.self) { try hub.set(address("current.json", "password"), to: "owned") }

        #expect(try hub.set(address("linked.json", "a"), to: 2).value == 2)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("linked.json").path) == "app.json")
        #expect(try String(contentsOf: folder.file("app.json"), encoding: .utf8).contains("2"))

        #expect(try hub.get(address("escape.json", "far")).value == "away")
        #expect(try hub.get(address("escape.json", "far")).isWritable == false)
        let refused = #expect(throws: JarvisError.self) { try hub.set(address("escape.json", "far"), to: "here") }
        #expect(refused?.code == .readOnly)
        #expect(try String(contentsOf: outside.file("far.json"), encoding: .utf8) == #"{"far":"away"}"#)
    }

    // MARK: - --secrets-dir

    @Test func secretFilesFollowTheOnePolicy() throws {
        try Data("hunter2".utf8).write(to: folder.file("prod_token"))
        try Data("public".utf8).write(to: folder.file("app_token"))
        try Data("far".utf8).write(to: outside.file("far_token"))
        try link("current_token", to: "prod_token")
        try link("linked_token", to: "app_token")
        try link("escape_token", to: outside.file("far_token").path)
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        configuration.hide(keys: "prod_*")
        let hub = JarvisHub(configuration: configuration)
        hub.register(SecretsScanner(folders: [folder.url], systemKeyring: false))
        let container = folder.url.lastPathComponent
        let address = { (key: String) in PreferenceAddress(scanner: "secrets", container: container, key: key) }

        let items = try hub.list(ListQuery(reveal: true)).items
        #expect(items.map(\.address.key) == ["app_token", "escape_token", "linked_token"])
        #expect(throws: JarvisError.self) { try hub.get(address("current_token"), reveal: true) }
        #expect(throws: JarvisError.self) { try hub.set(address("current_token"), to: "owned") }
        #expect(try String(contentsOf: folder.file("prod_token"), encoding: .utf8) == "hunter2")

        try hub.set(address("linked_token"), to: "rotated")
        #expect(try String(contentsOf: folder.file("app_token"), encoding: .utf8) == "rotated")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("linked_token").path) == "app_token")

        #expect(items.first { $0.address.key == "escape_token" }?.isWritable == false)
        let refused = #expect(throws: JarvisError.self) { try hub.set(address("escape_token"), to: "here") }
        #expect(refused?.code == .readOnly)
        #expect(try String(contentsOf: outside.file("far_token"), encoding: .utf8) == "far")
    }
}
