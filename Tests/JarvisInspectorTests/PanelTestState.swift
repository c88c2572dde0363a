import JarvisCore
import JarvisRemote

@testable import JarvisInspector

/// An empty model state of an agent that allows editing, for the panel's model tests.
enum PanelTestState {
    /// A state whose agent serves `scanners` and allows edits.
    static func editable(scanners: [String]) -> InspectorState {
        InspectorState(
            hello: Wire.HelloResult(
                agent: "test", pid: 1, platform: "Linux",
                capabilities: Wire.Capabilities(
                    editing: true, reveal: false, production: false, maxLineLength: 1 << 20, tcp: false, auth: .none),
                scanners: scanners))
    }
}
