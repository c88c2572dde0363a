import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The panel's search narrows keystroke by keystroke and always answers what the model's
/// full `sections(scanner:filter:)` gives.
@Suite struct PanelSearchTests {
    @Test func everyKeystrokeAnswersAsAFullSearch() {
        var state = PanelTestState.editable(scanners: ["defaults", "files"])
        var items: [PreferenceItem] = []
        for index in 0..<600 {
            let scanner = index % 2 == 0 ? "defaults" : "files"
            let address = PreferenceAddress(scanner: scanner, container: "box-\(index % 5)", key: "key-\(index)")
            items.append(
                PreferenceItem(address: address, type: .string, value: .string("v\(index * 7)"), revision: Revision("r")))
        }
        state.replace(
            scanners: ["defaults", "files"].map {
                Wire.Scanner(id: $0, name: $0, secret: false, writable: true, available: true)
            },
            containers: (0..<5).flatMap { box in
                ["defaults", "files"].map { Wire.Container(scanner: $0, name: "box-\(box)", writable: true) }
            }, items: items)
        let now = ContinuousClock.now
        // Typing, deleting, a pattern, a container's name, and back to nothing.
        let typed = ["k", "ke", "key-1", "key-12", "key-1", "v4", "v42", "*-3?", "box-3", "box", "x", ""]
        for level in [InspectorLevel.keys(scanner: "files", container: "box-3"), .scanners] {
            var search = PanelSearch(state, level: level, now: now)
            for query in typed {
                let filter = InspectorFilter(query)
                #expect(search.rows(filter) == state.rows(level, filter: filter, now: now), "\(query)")
            }
        }
        for scanner in [nil, "files"] as [String?] {
            var search = PanelSearch(state, scanner: scanner, now: now)
            for query in typed {
                let filter = InspectorFilter(query)
                #expect(search.sections(filter) == state.sections(scanner: scanner, filter: filter, now: now), "\(query)")
            }
        }
    }
}
