import Foundation
import JarvisScanners
import Testing

@testable import JarvisCore

/// Pointer edits, the key catalog, reset and bulk delete, through the hub with a real scanner.
@Suite struct JarvisHubEditingTests {
    let created = Date(timeIntervalSince1970: 1_700_000_000)

    func hub(catalog: KeyCatalog = [], hideKeys: GlobPattern? = nil) -> (JarvisHub, MemoryScanner) {
        let scanner = MemoryScanner(
            id: "memory",
            contents: [
                "app": [
                    "profile": [
                        "tags": ["swift", "math"], "meta": ["created": .date(created), "blob": .data(Data([9]))],
                    ],
                    "workout_1": 1, "workout_2": 2, "workout_secret": 3, "name": "Ada",
                ]
            ])
        var configuration = JarvisConfiguration.debug
        configuration.catalog = catalog
        if let hideKeys { configuration.hide(keys: hideKeys) }
        let hub = JarvisHub(configuration: configuration)
        hub.register(scanner)
        return (hub, scanner)
    }

    func address(_ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "memory", container: "app", key: key)
    }

    @Test func pointerGetSetDeleteKeepTheStructure() throws {
        let (hub, scanner) = hub()
        let port = try hub.get(address("profile"), pointer: JSONPointer(parsing: "/tags/1"))
        #expect(port.value == "math")
        #expect(port.pointer?.description == "/tags/1")
        #expect(port.revision == (try hub.get(address("profile"))).revision)

        let item = try hub.set(
            address("profile"), pointer: JSONPointer(parsing: "/meta/created"),
            to: .date(Date(timeIntervalSince1970: 0)))
        #expect(item.value == .date(Date(timeIntervalSince1970: 0)))
        let noParent = #expect(throws: JarvisError.self) {
            try hub.set(address("profile"), pointer: JSONPointer(parsing: "/meta/nested/deep"), to: 1)
        }
        #expect(noParent?.code == .notFound)
        try hub.set(address("profile"), pointer: JSONPointer(parsing: "/meta/count"), to: 1)
        let stored = scanner.contents["app"]?["profile"]
        #expect(try JSONPointer(parsing: "/meta/blob").value(in: stored ?? "") == .data(Data([9])))
        #expect(try JSONPointer(parsing: "/tags").value(in: stored ?? "") == ["swift", "math"])

        let removed = try hub.delete(address("profile"), pointer: JSONPointer(parsing: "/tags/0"))
        #expect(removed.value == "swift")
        #expect(try JSONPointer(parsing: "/tags").value(in: scanner.contents["app"]?["profile"] ?? "") == ["math"])
    }

    @Test func pointerEditsAreGuardedByTheWholeRevision() throws {
        let (hub, _) = hub()
        let before = try hub.get(address("profile"))
        try hub.set(
            address("profile"), pointer: JSONPointer(parsing: "/tags/0"), to: "rust", expectedRevision: before.revision)
        let error = #expect(throws: JarvisError.self) {
            try hub.set(
                address("profile"), pointer: JSONPointer(parsing: "/tags/0"), to: "c", expectedRevision: before.revision
            )
        }
        #expect(error?.code == .conflict)
        let missing = #expect(throws: JarvisError.self) {
            try hub.set(address("nothing"), pointer: JSONPointer(parsing: "/a"), to: 1)
        }
        #expect(missing?.code == .notFound)
    }

    @Test func catalogShowsDefaultsUnsetKeysAndChecksTypes() throws {
        let catalog: KeyCatalog = [
            KeyDefinition(
                "theme", in: "app", scanner: "memory", type: .string, default: "system", description: "Colours",
                allowedValues: ["light", "dark", "system"]),
            KeyDefinition("name", in: "app", scanner: "memory", type: .string, default: "nobody"),
            KeyDefinition(matching: "workout_*", in: "app", scanner: "memory", type: .integer, range: 0...100),
        ]
        let (hub, _) = hub(catalog: catalog)
        let items = try hub.list().items
        let theme = try #require(items.first { $0.address.key == "theme" })
        #expect(theme.value == nil)
        #expect(theme.catalog?.isUnset == true)
        #expect(theme.catalog?.defaultValue == "system")
        #expect(theme.catalog?.description == "Colours")
        #expect(theme.revision == .absent)
        #expect(items.first { $0.address.key == "name" }?.catalog?.defaultValue == "nobody")
        #expect(items.map(\.address.key) == items.map(\.address.key).sorted())
        #expect(try hub.get(address("theme")).catalog?.isUnset == true)

        for (key, value) in [
            ("theme", PreferenceValue.string("purple")), ("theme", 3), ("workout_1", 101), ("workout_1", "x"),
        ] {
            let error = #expect(throws: JarvisError.self) { try hub.set(address(key), to: value) }
            #expect(error?.code == .typeMismatch, "\(key) = \(value)")
        }
        try hub.set(address("theme"), to: "dark", expectedRevision: .absent)
        #expect(try hub.get(address("theme")).value == "dark")
        let again = #expect(throws: JarvisError.self) {
            try hub.set(address("theme"), to: "light", expectedRevision: .absent)
        }
        #expect(again?.code == .conflict)

        let reset = try hub.reset(address("theme"))
        #expect(reset.removed?.value == "dark")
        #expect(reset.current?.catalog?.isUnset == true)
        let twice = try hub.reset(address("theme"))
        #expect(twice.removed == nil)
        #expect(throws: JarvisError.self) {
            try JarvisConfiguration(catalog: [KeyDefinition("x", in: "a", type: .integer, default: "no")]).validate()
        }
    }

    @Test func bulkDeleteDryRunThenForRealNeverMatchingHiddenKeys() throws {
        let (hub, scanner) = hub(hideKeys: "*_secret")
        let dry = try hub.delete(matching: "workout_*", scanner: "memory", container: "app", dryRun: true)
        #expect(dry.map(\.address.key) == ["workout_1", "workout_2"])
        #expect(scanner.contents["app"]?["workout_1"] != nil)
        let done = try hub.delete(matching: "workout_*", scanner: "memory", container: "app")
        #expect(done.map(\.address.key) == ["workout_1", "workout_2"])
        #expect(scanner.contents["app"]?.keys.sorted() == ["name", "profile", "workout_secret"])
        #expect(try hub.delete(matching: "workout_*", scanner: "memory", container: "app").isEmpty)
    }
}

extension JarvisConfiguration {
    fileprivate init(catalog: KeyCatalog) {
        self.init()
        self.catalog = catalog
    }
}
