import Foundation
import JarvisScanners
import Testing

@testable import JarvisCore

@Suite struct JarvisHubTests {
    func hub(_ configuration: JarvisConfiguration = .debug) -> (JarvisHub, MemoryScanner) {
        let scanner = MemoryScanner(
            id: "memory",
            contents: [
                "app": ["name": "Ada", "count": 3, "workout_1": 1, "workout_2": 2],
                "private_data": ["token": "abc"],
            ])
        let hub = JarvisHub(configuration: configuration)
        hub.register(scanner)
        return (hub, scanner)
    }

    @Test func listsEverythingSortedWithRevisions() throws {
        let (hub, _) = hub()
        let items = try hub.list().items
        #expect(items.map(\.address.key) == ["count", "name", "workout_1", "workout_2", "token"])
        #expect(items.allSatisfy { $0.revision == Revision(of: $0.value ?? .boolean(false)) })
    }

    @Test func hiddenContainersAndKeysNeverLeave() throws {
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: "private_*", in: "memory")
        configuration.hide(keys: "workout_*")
        let (hub, _) = hub(configuration)
        let items = try hub.list().items
        #expect(items.map(\.address.key) == ["count", "name"])
        #expect(try hub.containers().map(\.name) == ["app"])
        let hidden = PreferenceAddress(scanner: "memory", container: "private_data", key: "token")
        let missing = PreferenceAddress(scanner: "memory", container: "nothing_here", key: "token")
        let errorForHidden = #expect(throws: JarvisError.self) { try hub.get(hidden) }
        let errorForMissing = #expect(throws: JarvisError.self) { try hub.get(missing) }
        #expect(errorForHidden?.code == .notFound)
        #expect(
            errorForHidden?.message.replacingOccurrences(of: "private_data", with: "X")
                == errorForMissing?.message.replacingOccurrences(of: "nothing_here", with: "X"))
        #expect(throws: JarvisError.self) { try hub.set(hidden, to: "stolen") }
        #expect(throws: JarvisError.self) {
            try hub.set(PreferenceAddress(scanner: "memory", container: "app", key: "workout_9"), to: 1)
        }
    }

    @Test func setAndDeleteWithExpectedRevisions() throws {
        let (hub, scanner) = hub()
        let address = PreferenceAddress(scanner: "memory", container: "app", key: "count")
        let before = try hub.get(address)
        let after = try hub.set(address, to: 4, expectedRevision: before.revision)
        #expect(after.value == 4)
        #expect(after.revision != before.revision)
        let conflict = #expect(throws: JarvisError.self) {
            try hub.set(address, to: 5, expectedRevision: before.revision)
        }
        #expect(conflict?.code == .conflict)
        #expect(scanner.contents["app"]?["count"] == 4)
        #expect(throws: JarvisError.self) { try hub.delete(address, expectedRevision: before.revision) }
        let removed = try hub.delete(address, expectedRevision: after.revision)
        #expect(removed.value == 4)
        #expect(scanner.contents["app"]?["count"] == nil)
        #expect(throws: JarvisError.self) { try hub.delete(address) }
    }

    @Test func productionRefusesEveryWriteAndReveal() throws {
        let (hub, scanner) = hub(.production)
        let address = PreferenceAddress(scanner: "memory", container: "app", key: "name")
        let refused = #expect(throws: JarvisError.self) { try hub.set(address, to: "Eve") }
        #expect(refused?.code == .readOnly)
        #expect(refused?.message.contains("production") == true)
        #expect(throws: JarvisError.self) { try hub.delete(address) }
        #expect(scanner.contents["app"]?["name"] == "Ada")
        #expect(try hub.list().items.allSatisfy { !$0.isWritable })
        var revealing = JarvisConfiguration.production
        revealing.allowsReveal = true
        #expect(throws: JarvisError.self) { try revealing.validate() }
        #expect(throws: JarvisError.self) { try hub.update(configuration: revealing) }
    }

    @Test func secretsAreMaskedUnlessRevealIsAllowedAndAsked() throws {
        let secrets = MemoryScanner(id: "vault", isSecret: true, contents: ["svc": ["pw": "hunter2"]])
        let hub = JarvisHub()
        hub.register(secrets)
        let address = PreferenceAddress(scanner: "vault", container: "svc", key: "pw")
        let masked = try hub.get(address)
        #expect(masked.value == nil)
        #expect(masked.mask?.length == 7)
        #expect(masked.revision != Revision(of: "hunter2"))
        #expect(!String(describing: masked).contains("hunter2"))
        #expect(throws: JarvisError.self) { try hub.get(address, reveal: true) }
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        try hub.update(configuration: configuration)
        #expect(try hub.get(address, reveal: true).value == "hunter2")
        #expect(try hub.get(address).value == nil)
    }
}
