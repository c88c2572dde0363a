import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The panel reads segments and add choices from one digest made per change, and draws a
/// capped preview of a large value: the same answers as the model's own walks, made once.
@Suite struct PanelDigestTests {
    /// `keys` keys over two writable scanners, three containers each, and a 10 MB string.
    private func state(keys: Int) -> InspectorState {
        var state = PanelTestState.editable(scanners: ["defaults", "files"])
        let scanners = ["defaults", "files"]
        var containers: [Wire.Container] = []
        var items: [PreferenceItem] = []
        for scanner in scanners {
            for box in 0..<3 { containers.append(Wire.Container(scanner: scanner, name: "c\(box)", writable: box != 2)) }
        }
        for index in 0..<keys {
            let address = PreferenceAddress(scanner: scanners[index % 2], container: "c\(index % 3)", key: "key-\(index)")
            items.append(PreferenceItem(address: address, type: .integer, value: .integer(Int64(index)), revision: Revision("r")))
        }
        let big = PreferenceAddress(scanner: "files", container: "c0", key: "big")
        items.append(
            PreferenceItem(
                address: big, type: .string, value: .string(String(repeating: "x", count: 10_000_000)), revision: Revision("r")))
        state.replace(
            scanners: scanners.map { Wire.Scanner(id: $0, name: $0, secret: false, writable: true, available: true) },
            containers: containers, items: items)
        return state
    }

    @Test func theDigestAnswersAsTheModelsOwnWalks() {
        let state = state(keys: 1_000)
        let digest = PanelDigest(state)
        #expect(digest.segments == state.segments())
        #expect(digest.segments.first?.count == 1_001)
        #expect(digest.addChoices(scanner: nil) == state.addChoices())
        for scanner in ["defaults", "files", "none"] {
            #expect(digest.addChoices(scanner: scanner) == state.addChoices(scanner: scanner))
        }
        // The read-only container c2 is offered nowhere.
        #expect(digest.addChoices.allSatisfy { $0.container != "c2" })
        #expect(PanelDigest.empty.segments.isEmpty)
    }

    @Test func aTenMegabyteValueShowsACappedPreviewAndCopiesWhole() throws {
        let state = state(keys: 10)
        let big = PreferenceAddress(scanner: "files", container: "c0", key: "big")
        let detail = try #require(state.detail(big, limit: PanelDigest.previewLimit))
        let shown = try #require(detail.valueText)
        #expect(shown.count < PanelDigest.previewLimit + 100)
        #expect(shown.hasSuffix("(shortened: the value is larger than \(PanelDigest.previewLimit) characters)"))
        // Copy hands over the whole value.
        #expect(state.copyTexts(for: .key(big))?.text(.value)?.count == 10_000_000)
    }
}
