import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners
import JarvisSystem

/// Records the edits a store hands over for a running device: `xcrun` cannot run here, so
/// this stands in for it to show what the store asks of it.
final class RecordingEditor: SimulatorDefaultsEditor, @unchecked Sendable {
    // Guards `edits`, written by the store's thread and read by the test.
    private let lock = NSLock()
    private var recorded: [SimulatorDefaultsEdit] = []

    var edits: [SimulatorDefaultsEdit] { lock.withLock { recorded } }

    func apply(_ edit: SimulatorDefaultsEdit) throws(JarvisError) {
        lock.withLock { recorded.append(edit) }
    }
}

@Suite("Simulator sidecar store")
struct SimulatorDefaultsStoreTests {
    let temporary: TemporaryFolder
    let tree: SimulatorTreeBuilder
    let notesOnPhone: URL
    let notesOnPad: URL
    let groupOnPad: URL

    init() throws {
        temporary = try TemporaryFolder()
        tree = SimulatorTreeBuilder(home: temporary.url)
        try tree.device(udid: "PHONE-1", name: "iPhone 15", state: 3)
        try tree.device(udid: "PAD-2", name: "iPad Air", state: 1)
        notesOnPhone = try tree.container(device: "PHONE-1", kind: "application", identifier: "com.example.notes")
        notesOnPad = try tree.container(device: "PAD-2", kind: "application", identifier: "com.example.notes")
        groupOnPad = try tree.container(device: "PAD-2", kind: "appGroup", identifier: "group.com.example.shared")
        try suite(in: notesOnPhone, "com.example.notes", ["theme": "dark", "count": 3])
        try suite(in: notesOnPad, "com.example.notes", ["theme": "light", "count": 5, "flag": true])
        try suite(in: notesOnPad, "com.apple.something", ["hidden": 1])
        try suite(in: groupOnPad, "group.com.example.shared", ["shared": 1.5])
    }

    func suite(in container: URL, _ name: String, _ values: [String: Any]) throws {
        try tree.writeBinary(values, to: container.appendingPathComponent("Library/Preferences/\(name).plist"))
    }

    /// A sidecar scanner that does not wait for a device's daemon to save (these editors never do).
    func scanner(device: String? = nil, apps: [String] = [], editor: any SimulatorDefaultsEditor) -> DefaultsScanner {
        DefaultsScanner(
            store: SimulatorDefaultsStore(
                simulators: SimulatorSet(home: temporary.url), selector: device, apps: apps.map { GlobPattern($0) },
                editor: editor, saveWait: 0))
    }

    @Test func suitesAreNamedByDeviceOwnerAndSuite() throws {
        // Apple's own domains are listed by the scanner and hidden by the hub, as everywhere.
        let sidecar = scanner(editor: RecordingEditor())
        #expect(try sidecar.containers().map(\.name).contains("iPad Air/com.example.notes/com.apple.something"))
        #expect(sidecar.storedNames(container: "iPad Air/com.example.notes/com.apple.something", key: nil).isSystem)
        let hub = JarvisHub()
        hub.register(sidecar)
        let names = try hub.containers().map(\.name)
        #expect(
            names == [
                "iPad Air/com.example.notes/com.example.notes",
                "iPad Air/group.com.example.shared/group.com.example.shared",
                "iPhone 15/com.example.notes/com.example.notes",
            ])
    }

    @Test func devicesAndAppsCanBeNarrowed() throws {
        #expect(
            try scanner(device: "booted", editor: RecordingEditor()).containers().map(\.name) == [
                "iPhone 15/com.example.notes/com.example.notes"
            ])
        #expect(
            try scanner(apps: ["group.*"], editor: RecordingEditor()).containers().map(\.name) == [
                "iPad Air/group.com.example.shared/group.com.example.shared"
            ])
        #expect(scanner(device: "Pixel", editor: RecordingEditor()).info.unavailableReason != nil)
        #expect(scanner(editor: RecordingEditor()).info.isWritable)
        #expect(
            scanner(editor: RecordingEditor()).info.displayName
                == "Simulator defaults: iPad Air (shut down), iPhone 15 (booted)")
    }

    @Test func devicesSharingANameAreToldApartByRuntimeThenUDID() throws {
        let one = SimulatorDevice(
            udid: "A", name: "iPhone 15", state: .booted, runtime: "com.apple.CoreSimulator.SimRuntime.iOS-17-0",
            folder: temporary.url)
        var two = one
        two.udid = "B"
        two.runtime = "com.apple.CoreSimulator.SimRuntime.iOS-18-2"
        var three = two
        three.udid = "C"
        let other = SimulatorDevice(udid: "D", name: "iPad", state: .shutdown, folder: temporary.url)
        let all = [one, two, three, other]
        #expect(SimulatorSuiteTable.label(of: one, among: all) == "iPhone 15 (iOS 17.0)")
        #expect(SimulatorSuiteTable.label(of: two, among: all) == "iPhone 15 (B)")
        #expect(SimulatorSuiteTable.label(of: three, among: all) == "iPhone 15 (C)")
        #expect(SimulatorSuiteTable.label(of: other, among: all) == "iPad")
    }

    /// Issue 27: a device `A/b` with an app `c`, and a device `A` with an app `b/c`, were both
    /// `A/b/c/…`: one device's suite disappeared and writes went to the other's.
    @Test func namesHoldingASlashNeverCollide() throws {
        try tree.device(udid: "SLASH-1", name: "A/b", state: 1)
        try tree.device(udid: "SLASH-2", name: "A", state: 1)
        let firstApp = try tree.container(device: "SLASH-1", kind: "application", identifier: "c")
        let second = try tree.container(device: "SLASH-2", kind: "application", identifier: "b/c")
        try suite(in: firstApp, "s", ["owner": "first"])
        try suite(in: second, "s", ["owner": "second"])
        // A device whose own name reads as another's label with its runtime: never the same name.
        try tree.device(udid: "TWIN-1", name: "iPhone 15", state: 1)
        try tree.device(udid: "TWIN-2", name: "iPhone 15 (TWIN-1)", state: 1)
        let twinOne = try tree.container(device: "TWIN-1", kind: "application", identifier: "t")
        let twinTwo = try tree.container(device: "TWIN-2", kind: "application", identifier: "t")
        try suite(in: twinOne, "s", ["owner": "twin one"])
        try suite(in: twinTwo, "s", ["owner": "twin two"])
        let hub = JarvisHub()
        hub.register(scanner(editor: RecordingEditor()))
        let names = try hub.containers().map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        let owners = try hub.list(ListQuery(key: "owner")).items.compactMap { item -> String? in
            guard case .string(let owner) = item.value else { return nil }
            return "\(item.address.container) \(owner)"
        }
        #expect(owners.count == 4, "\(owners)")
        #expect(owners.contains("A%2Fb/c/s first") && owners.contains("A/b%2Fc/s second"), "\(owners)")
        // Each name reads and writes its own suite.
        try hub.set(PreferenceAddress(scanner: "defaults", container: "A/b%2Fc/s", key: "owner"), to: "second, edited")
        let first = PreferenceAddress(scanner: "defaults", container: "A%2Fb/c/s", key: "owner")
        #expect(try hub.get(first).value == "first")
        #expect(
            try hub.get(PreferenceAddress(scanner: "defaults", container: "A/b%2Fc/s", key: "owner")).value
                == "second, edited")
        // The raw, ambiguous spelling names nothing.
        #expect(throws: JarvisError.self) {
            try hub.get(PreferenceAddress(scanner: "defaults", container: "A/b/c/s", key: "owner"))
        }
    }

    @Test func aShutDownDevicesBinaryPlistIsEditedInPlaceAndStaysBinary() throws {
        let editor = RecordingEditor()
        let scanner = scanner(editor: editor)
        let name = "iPad Air/com.example.notes/com.example.notes"
        try scanner.write(WriteRequest(container: name, key: "count", change: .set(.integer(9))))
        try scanner.write(WriteRequest(container: name, key: "flag", change: .delete))
        let file = notesOnPad.appendingPathComponent("Library/Preferences/com.example.notes.plist")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.prefix(8) == Data("bplist00".utf8))
        var format = PropertyListSerialization.PropertyListFormat.xml
        let stored = try PropertyListSerialization.propertyList(from: bytes, format: &format) as? [String: Any]
        #expect(format == .binary)
        #expect(stored?["count"] as? Int == 9)
        #expect(stored?["theme"] as? String == "light")
        #expect(stored?["flag"] == nil)
        #expect(editor.edits.isEmpty)
        #expect(try scanner.read(ReadRequest(container: name))[key: "count"]?.value == .integer(9))
    }

    @Test func aBootedDevicesEditGoesToItsEditorAndLeavesTheFileAlone() throws {
        let editor = RecordingEditor()
        let scanner = scanner(editor: editor)
        let name = "iPhone 15/com.example.notes/com.example.notes"
        let file = notesOnPhone.appendingPathComponent("Library/Preferences/com.example.notes.plist")
        let before = try Data(contentsOf: file)
        try scanner.write(WriteRequest(container: name, key: "theme", change: .set("light")))
        try scanner.write(WriteRequest(container: name, key: "count", change: .delete))
        #expect(
            editor.edits == [
                SimulatorDefaultsEdit(udid: "PHONE-1", plistPath: file.path, key: "theme", change: .set("light")),
                SimulatorDefaultsEdit(udid: "PHONE-1", plistPath: file.path, key: "count", change: .delete),
            ])
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aDeviceBootedSinceTheListingIsNotWrittenDirectly() throws {
        let editor = RecordingEditor()
        let scanner = scanner(editor: editor)
        let name = "iPad Air/com.example.notes/com.example.notes"
        _ = try scanner.containers()
        try tree.device(udid: "PAD-2", name: "iPad Air", state: 3)
        let refusing = RefusingDefaultsEditor(reason: "test")
        let refused = Self.refusal(scanner: .simulator(SimulatorSet(home: temporary.url), editor: refusing), name)
        #expect(refused?.code == .readOnly)
        try scanner.write(WriteRequest(container: name, key: "count", change: .set(.integer(1))))
        #expect(editor.edits.map(\.udid) == ["PAD-2"])
    }

    static func refusal(scanner: DefaultsScanner, _ name: String) -> JarvisError? {
        do {
            try scanner.write(WriteRequest(container: name, key: "count", change: .set(.integer(1))))
            return nil
        } catch {
            return error as? JarvisError
        }
    }

    @Test func unknownNamesAreNotFound() throws {
        let scanner = scanner(editor: RecordingEditor())
        for name in ["iPad Air/com.example.other/x", "nowhere", "iPad Air/com.example.notes/"] {
            let error = try #require(throws: JarvisError.self) { try scanner.read(ReadRequest(container: name)) }
            #expect(error.code == .notFound)
        }
        let escape = try #require(throws: JarvisError.self) {
            try scanner.write(
                WriteRequest(container: "iPad Air/com.example.notes/..", key: "k", change: .set("v")))
        }
        #expect(escape.code == .invalidParams)
    }

    @Test func anAppInstalledAfterTheListingIsFound() throws {
        let scanner = scanner(editor: RecordingEditor())
        _ = try scanner.containers()
        let later = try tree.container(device: "PAD-2", kind: "application", identifier: "com.example.later")
        try suite(in: later, "com.example.later", ["x": 1])
        let entries = try scanner.read(ReadRequest(container: "iPad Air/com.example.later/com.example.later"))
        #expect(entries.map(\.key) == ["x"])
    }

    @Test func changedFilesMapBackToTheirSuites() throws {
        let scanner = scanner(editor: RecordingEditor())
        let targets = scanner.watchTargets()
        #expect(targets.count == 3)
        let path = groupOnPad.appendingPathComponent("Library/Preferences/group.com.example.shared.plist").path
        #expect(
            scanner.containers(changedAt: path) == ["iPad Air/group.com.example.shared/group.com.example.shared"])
        #expect(scanner.containers(changedAt: temporary.url.appendingPathComponent("x.plist").path) == nil)
    }
}

/// Stands in for a device's preferences daemon that saves a little after `defaults` returns:
/// it writes the edit to the file from another thread after a delay.
struct LateSavingEditor: SimulatorDefaultsEditor {
    let delay: TimeInterval

    func apply(_ edit: SimulatorDefaultsEdit) throws(JarvisError) {
        let folder = URL(fileURLWithPath: edit.plistPath).deletingLastPathComponent()
        let suite = URL(fileURLWithPath: edit.plistPath).deletingPathExtension().lastPathComponent
        let object: Any? =
            switch edit.change {
            case .set(let value): try PropertyListValue.encode(value)
            case .delete: nil
            }
        nonisolated(unsafe) let saved = object
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            _ = try? PlistFolderStore(folder: folder, includeSystemDomains: false)
                .setObject(saved, forKey: edit.key, in: suite)
        }
    }
}

@Suite("Simulator sidecar waits for the daemon")
struct SimulatorSaveWaitTests {
    @Test func aBootedDevicesEditIsReadBackOnceItsDaemonSavedIt() throws {
        let temporary = try TemporaryFolder()
        let tree = SimulatorTreeBuilder(home: temporary.url)
        try tree.device(udid: "PHONE-1", name: "iPhone 15", state: 3)
        let app = try tree.container(device: "PHONE-1", kind: "application", identifier: "com.example.notes")
        try tree.writeBinary(
            ["theme": "dark"], to: app.appendingPathComponent("Library/Preferences/com.example.notes.plist"))
        let scanner = DefaultsScanner.simulator(
            SimulatorSet(home: temporary.url), editor: LateSavingEditor(delay: 0.4))
        let name = "iPhone 15/com.example.notes/com.example.notes"
        try scanner.write(WriteRequest(container: name, key: "theme", change: .set("light")))
        #expect(try scanner.read(ReadRequest(container: name))[key: "theme"]?.value == "light")
        try scanner.write(WriteRequest(container: name, key: "theme", change: .delete))
        #expect(try scanner.read(ReadRequest(container: name))[key: "theme"] == nil)
    }
}
