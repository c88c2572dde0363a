import Foundation
import JarvisScanners
import Testing

@testable import JarvisCore

/// `check` through the hub with a real scanner whose contents break the key catalog in every
/// way it names (values the hub's own writes would refuse, as another program stores them).
@Suite struct JarvisHubCheckTests {
    static let catalog: KeyCatalog = [
        KeyDefinition(
            "theme", in: "app", scanner: "memory", type: .string, default: "system",
            allowedValues: ["light", "dark", "system"]),
        KeyDefinition("name", in: "app", scanner: "memory", type: .string, default: "nobody"),
        KeyDefinition("count", in: "app", scanner: "memory", type: .integer, range: 0...100),
        KeyDefinition("flag", in: "absent", scanner: "memory", type: .boolean),
    ]

    func hub(_ contents: [String: [String: PreferenceValue]]) -> JarvisHub {
        var configuration = JarvisConfiguration.debug
        configuration.catalog = Self.catalog
        let hub = JarvisHub(configuration: configuration)
        hub.register(MemoryScanner(id: "memory", contents: contents))
        return hub
    }

    @Test func everyKindOfFindingIsReported() throws {
        let big = PreferenceValue.string(String(repeating: "x", count: 1_100_000))
        let hub = hub([
            "app": ["theme": "purple", "name": "nobody", "count": "seven", "orphan": 1],
            "media": ["cover": big],
        ])
        let findings = try hub.check()
        let kinds = Dictionary(grouping: findings, by: { $0.kind })
        #expect(kinds[.notAllowed]?.map(\.key) == ["theme"])
        #expect(kinds[.equalsDefault]?.map(\.key) == ["name"])
        #expect(kinds[.wrongType]?.map(\.key) == ["count"])
        #expect(kinds[.undeclared]?.map(\.key) == ["orphan"])
        #expect(kinds[.missingContainer]?.map(\.container) == ["absent"])
        #expect(kinds[.largeContainer]?.map(\.container) == ["media"])
        #expect(findings.count == 6, "\(findings)")
        #expect(kinds[.wrongType]?.first?.message.contains("declares integer") == true)
        // Narrowed to one container, only its findings.
        #expect(Set(try hub.check(container: "media").map(\.kind)) == [.largeContainer])
    }

    @Test func aStoreAsTheCatalogSaysHasNoFinding() throws {
        let hub = hub(["app": ["theme": "dark", "name": "Ada", "count": 7], "absent": ["flag": true]])
        #expect(try hub.check().isEmpty)
    }
}
