import Foundation
import Testing

@testable import JarvisCore

/// The one size measure and the one decision behind every face's "large container" mark and
/// `jarvis check`'s largeContainer finding.
@Suite struct ContainerSizeTests {
    private func item(_ key: String, _ value: PreferenceValue?, layer: ValueLayer = .stored) -> PreferenceItem {
        var item = PreferenceItem(
            address: PreferenceAddress(scanner: "defaults", container: "com.example.app", key: key),
            type: value?.type ?? .string, value: value, revision: Revision("r"))
        item.layer = layer
        return item
    }

    @Test func countsStoredValuesAndTheirKeysOnly() {
        let size = ContainerSize([
            item("name", .string("Ada")),  // 4 + 3 + 2
            item("tags", .array([.string("a"), .integer(1)])),  // 4 + 1 + 2 + (1 + 2) + 1
            item("registered", .string(String(repeating: "x", count: 900_000)), layer: .registered),
            item("secret", nil),  // masked: its value never leaves the agent
        ])
        #expect(size.bytes == 9 + 11)
        #expect(!size.isLarge)
        #expect(size.warning == nil)
    }

    @Test func overHalfAMegabyteIsNamedWithItsSizeAndWhyItMatters() {
        let just = ContainerSize([item("k", .string(String(repeating: "x", count: ContainerSize.largeBytes - 3)))])
        #expect(just.bytes == ContainerSize.largeBytes)
        #expect(!just.isLarge, "512 KB exactly is not over 512 KB")

        let large = ContainerSize([
            item("a", .string(String(repeating: "x", count: 400 * 1024))),
            item("b", .data(Data(repeating: 7, count: 300 * 1024))),
        ])
        #expect(large.isLarge)
        #expect(!large.isTooLarge)
        #expect(large.text == "800 KB")
        #expect(
            large.warning
                == "large: about 800 KB of values; tvOS stops an app whose defaults pass 1 MB, and UserDefaults reads a suite whole at launch"
        )
    }

    @Test func sizesAreReadableAndCountingStopsPastTheCheckLimit() {
        var size = ContainerSize()
        #expect(size.text == "0 bytes")
        size.add(item("k", .string(String(repeating: "x", count: 1_500_000))))
        #expect(size.isTooLarge)
        #expect(size.text == "1.4 MB")
        // A 10 MB value is counted only as far as any decision needs.
        let huge = ContainerSize([item("k", .string(String(repeating: "x", count: 10_000_000)))])
        #expect(huge.isTooLarge)
    }

    @Test func sizesAreKeptPerContainer() {
        var other = item("k", .string(String(repeating: "x", count: 600 * 1024)))
        other.address.container = "com.example.big"
        let sizes = ContainerSize.byContainer([item("name", .string("Ada")), other])
        #expect(sizes[PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "")]?.isLarge == false)
        #expect(sizes[PreferenceAddress(scanner: "defaults", container: "com.example.big", key: "")]?.isLarge == true)
    }
}
