import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// A container over 512 KB is named, with its size and why it matters, on the rows every face
/// draws: a container row (terminal inspector, browser sidebar) and a section (in-app panel).
@Suite struct InspectorContainerSizeTests {
    private func state() -> InspectorState {
        var state = PanelTestState.editable(scanners: ["defaults"])
        func item(_ container: String, _ key: String, _ value: PreferenceValue) -> PreferenceItem {
            PreferenceItem(
                address: PreferenceAddress(scanner: "defaults", container: container, key: key), type: value.type,
                value: value, revision: Revision("a"))
        }
        state.replace(
            scanners: [Wire.Scanner(id: "defaults", name: "Defaults suites", secret: false, writable: true, available: true)],
            containers: [
                Wire.Container(scanner: "defaults", name: "com.example.big", writable: true),
                Wire.Container(scanner: "defaults", name: "com.example.small", writable: true),
            ],
            items: [
                item("com.example.big", "cache", .string(String(repeating: "x", count: 300 * 1024))),
                item("com.example.big", "history", .string(String(repeating: "y", count: 300 * 1024))),
                item("com.example.small", "theme", .string("dark")),
            ])
        return state
    }

    @Test func containerRowsAndSectionsNameALargeContainer() {
        let state = state()
        let rows = state.rows(.containers(scanner: "defaults"))
        let big = rows.first { $0.title == "com.example.big" }
        #expect(
            big?.sizeWarning
                == "large: about 600 KB of values; tvOS stops an app whose defaults pass 1 MB, and UserDefaults reads a suite whole at launch"
        )
        #expect(rows.first { $0.title == "com.example.small" }?.sizeWarning == nil)

        let sections = state.sections(scanner: "defaults")
        #expect(sections.first { $0.container == "com.example.big" }?.sizeWarning == big?.sizeWarning)
        #expect(sections.first { $0.container == "com.example.small" }?.sizeWarning == nil)
        // Keys carry no such mark: it belongs to the container.
        #expect(state.rows(.keys(scanner: "defaults", container: "com.example.big")).allSatisfy { $0.sizeWarning == nil })
    }
}
