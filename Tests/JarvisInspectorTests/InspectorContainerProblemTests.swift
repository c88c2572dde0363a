import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// The model marks a container unreadable, and readable again, as `changed` notifications say,
/// keeping its keys meanwhile, so every face shows the problem without a reload.
@Suite struct InspectorContainerProblemTests {
    let address = PreferenceAddress(scanner: "files", container: "app.json", key: "port")

    private func state() -> InspectorState {
        var state = InspectorState(
            hello: Wire.HelloResult(
                agent: "test", pid: 1, platform: "Linux",
                capabilities: Wire.Capabilities(
                    editing: true, reveal: false, production: false, maxLineLength: 1 << 20, tcp: false, auth: .none),
                scanners: ["files"]))
        state.replace(
            scanners: [], containers: [Wire.Container(scanner: "files", name: "app.json", writable: true)],
            items: [PreferenceItem(address: address, type: .integer, value: .integer(8080), revision: Revision("a"))])
        return state
    }

    private func notification(
        _ sequence: Int64, _ kind: ChangeNotification.ContainerChange.Kind, problem: String? = nil,
        changes: [ChangeNotification.Change] = []
    ) -> ChangeNotification {
        ChangeNotification(
            subscription: "w1", sequence: sequence, time: nil, changes: changes,
            container: ChangeNotification.ContainerChange(
                kind: kind, scanner: "files", name: "app.json", problem: problem))
    }

    private func problem(_ state: InspectorState) -> String? {
        state.sections(scanner: "files").first { $0.container == "app.json" }?.problem
    }

    @Test func aProblemShowsAtOnceAndTheKeysStay() {
        var state = state()
        let generation = state.generation
        state.apply(notification(1, .unreadable, problem: "not valid JSON: line 1, column 15"), now: .now)
        #expect(problem(state) == "not valid JSON: line 1, column 15")
        #expect(state.generation != generation, "faces redraw when the generation moves")
        #expect(state.items[address]?.value == .integer(8080))
        #expect(
            state.lastChange == InspectorMessage("app.json cannot be read: not valid JSON: line 1, column 15", .error))

        var fixed = PreferenceItem(address: address, type: .integer, value: .integer(8081), revision: Revision("b"))
        fixed.isWritable = true
        let old = state.items[address]
        #expect(
            state.apply(
                notification(2, .readable, changes: [.init(kind: .updated, address: address, item: fixed, old: old)]),
                now: .now) == 1)
        #expect(problem(state) == nil)
        #expect(state.items[address]?.value == .integer(8081))
    }

    @Test func keysChangingClearAProblemAndUnknownKindsChangeNothing() {
        var state = state()
        state.apply(notification(1, .unreadable, problem: "cannot be read"), now: .now)
        state.apply(notification(2, "moved"), now: .now)
        #expect(problem(state) == "cannot be read")
        // A container deleted while unreadable: its keys go, and so does the problem.
        state.apply(
            ChangeNotification(
                subscription: "w1", sequence: 3, time: nil,
                changes: [.init(kind: .removed, address: address, item: nil, old: state.items[address])]),
            now: .now)
        #expect(problem(state) == nil)
        #expect(state.items[address] == nil)
    }

    @Test func aContainerTheListingLackedIsShownWithItsProblem() {
        var state = state()
        state.apply(
            ChangeNotification(
                subscription: "w1", sequence: 1, time: nil, changes: [],
                container: .init(kind: .unreadable, scanner: "files", name: "new.json", problem: "not valid JSON")),
            now: .now)
        let section = state.sections(scanner: "files").first { $0.container == "new.json" }
        #expect(section?.problem == "not valid JSON" && section?.rows.isEmpty == true)
    }
}
