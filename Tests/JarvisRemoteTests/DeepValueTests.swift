import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// A host's own scanner holding a value deeper than the wire carries back: the agent leaves
/// it out (with a problem naming it) instead of serving what no client could write back.
@Suite struct DeepValueTests {
    private static func nested(_ levels: Int) -> PreferenceValue {
        var value: PreferenceValue = 1
        for _ in 0..<levels { value = [value] }
        return value
    }

    @Test func tooDeepValuesAreNotServed() throws {
        let fixture = try AgentFixture(
            tcp: false,
            contents: [
                "app": [
                    "deepest": Self.nested(PreferenceValue.maxDepth),
                    "deeper": Self.nested(PreferenceValue.maxDepth + 1), "name": "Ada",
                ]
            ])
        let client = try JarvisClient(endpoint: fixture.unix)
        defer { client.close() }
        let listing = try client.listing(Wire.ListParams(scanner: "memory"))
        #expect(listing.items.map(\.address.key) == ["deepest", "name"])
        #expect(listing.problems.count == 1)
        #expect(listing.problems.first?.problem?.contains("'deeper' nests 256 levels") == true)

        let deepest = try client.get(Wire.Place(scanner: "memory", container: "app", key: "deepest"))
        #expect(deepest.value?.depth == PreferenceValue.maxDepth)
        try client.set(Wire.Place(scanner: "memory", container: "app", key: "copy"), to: deepest.value ?? 0)
        #expect(throws: JarvisError.self) {
            try client.get(Wire.Place(scanner: "memory", container: "app", key: "deeper"))
        }
        do {
            try client.set(Wire.Place(scanner: "memory", container: "app", key: "copy"), to: Self.nested(256))
            Issue.record("a value one level too deep was stored")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }
}
