import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// What an add offers follows the types the agent says each scanner's containers take
/// (`types` in `scanners`), not a guess from the scanner's name: a host's scanner that stores
/// only booleans is offered booleans, one that does not say is offered every type.
@Suite struct InspectorAddTypesTests {
    typealias Kind = InspectorSessionTests.Kind

    /// A host's scanner of feature flags: booleans only, and it says so.
    final class FlagsScanner: PreferenceScanner {
        let id = "flags"
        let info = ScannerInfo(displayName: "Feature flags", isWritable: true)
        let valueTypes: [PreferenceType]? = [.boolean]
        private let flags = Locked<[String: Bool]>(["new_onboarding": false])
        func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }
        func read(_ request: ReadRequest) throws -> [ScannedEntry] {
            flags.current.map { ScannedEntry(key: $0.key, value: .boolean($0.value)) }
        }
        func write(_ request: WriteRequest) throws {
            guard case .set(.boolean(let on)) = request.change else {
                throw JarvisError(.typeMismatch, "flags are booleans")
            }
            flags.withLock { $0[request.key] = on }
        }
    }

    /// The same flags in a scanner that does not say what it takes.
    final class QuietScanner: PreferenceScanner {
        let id = "quiet"
        let info = ScannerInfo(displayName: "Quiet", isWritable: true)
        func containers() throws -> [ContainerInfo] { [ContainerInfo("things")] }
        func read(_ request: ReadRequest) throws -> [ScannedEntry] { [] }
        func write(_ request: WriteRequest) throws {}
    }

    @Test(arguments: Kind.allCases) func anAddOffersTheTypesTheAgentSaysEachScannerTakes(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let runtime = fixture.root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        let agent = try JarvisAgent.start(
            configuration: InspectorFixture.configuration(), scanners: fixture.scanners + [FlagsScanner(), QuietScanner()],
            options: .init(
                name: "inspector-test", runtimeDirectory: runtime, journalFolder: runtime.appendingPathComponent("journal")))
        let session = InspectorSession(source: try kind.source(agent))
        defer { session.close(); agent.stop() }
        try session.load()
        let state = session.state
        // What each scanner said, through the wire when remote.
        #expect(state.scanners.first { $0.id == "flags" }?.types == [.boolean])
        #expect(state.scanners.first { $0.id == "quiet" }?.types == nil)
        #expect(state.scanners.first { $0.id == "files" }?.types == [.string, .integer, .real, .boolean, .array, .dictionary])
        #expect(state.scanners.first { $0.id == "defaults" }?.types == PreferenceType.allCases)
        let choices = state.addChoices()
        #expect(choices.first { $0.scanner == "flags" }?.types == [.boolean])
        #expect(choices.first { $0.scanner == "quiet" }?.types == PreferenceType.allCases)
        #expect(choices.first { $0.scanner == "secrets" }?.types == [.string, .data])
        #expect(throws: JarvisError.self) {
            try session.newDraft(scanner: "flags", container: "features", key: "banner", type: .string)
        }
        let draft = try session.newDraft(scanner: "flags", container: "features", key: "dark_mode", type: .boolean)
        guard case .saved(let item) = try session.save(draft, text: "true") else {
            Issue.record("a boolean flag must save"); return
        }
        #expect(item.value == .boolean(true))
    }
}
