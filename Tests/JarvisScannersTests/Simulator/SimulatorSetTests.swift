import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners
import JarvisSystem

@Suite("Simulator folder model")
struct SimulatorSetTests {
    let temporary: TemporaryFolder
    let tree: SimulatorTreeBuilder
    let simulators: SimulatorSet

    init() throws {
        temporary = try TemporaryFolder()
        tree = SimulatorTreeBuilder(home: temporary.url)
        simulators = SimulatorSet(home: temporary.url)
    }

    @Test func devicesAreReadFromBinaryDevicePlists() throws {
        try tree.device(udid: "BBBB-2", name: "iPhone 15", state: 3)
        try tree.device(udid: "AAAA-1", name: "iPad Air", state: 1)
        let scan = simulators.devices()
        #expect(scan.skipped.isEmpty)
        #expect(scan.items.map(\.name) == ["iPad Air", "iPhone 15"])
        let phone = try #require(scan.items.last)
        #expect(phone.udid == "BBBB-2")
        #expect(phone.state == .booted && phone.state.isBooted && phone.state.isRunning)
        #expect(phone.runtimeName == "iOS 17.0")
        #expect(scan.items.first?.state == .shutdown)
        #expect(scan.items.first?.state.description == "shut down")
    }

    @Test func noSimulatorFolderIsNoDevicesAndNoProblem() {
        let scan = simulators.devices()
        #expect(scan.items.isEmpty && scan.skipped.isEmpty)
    }

    @Test func brokenDevicesAreSkippedWithAReason() throws {
        try tree.device(udid: "GOOD", name: "iPhone 15", state: 1)
        let garbage = tree.devicesFolder.appendingPathComponent("GARBAGE", isDirectory: true)
        try FileManager.default.createDirectory(at: garbage, withIntermediateDirectories: true)
        try Data("not a plist \u{0}\u{1}".utf8).write(to: garbage.appendingPathComponent("device.plist"))
        let missing = tree.devicesFolder.appendingPathComponent("MISSING", isDirectory: true)
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: true)
        let array = tree.devicesFolder.appendingPathComponent("ARRAY", isDirectory: true)
        try FileManager.default.createDirectory(at: array, withIntermediateDirectories: true)
        try tree.writeBinary(["name"], to: array.appendingPathComponent("device.plist"))
        let nameless = tree.devicesFolder.appendingPathComponent("NAMELESS", isDirectory: true)
        try FileManager.default.createDirectory(at: nameless, withIntermediateDirectories: true)
        try tree.writeBinary(["state": 3], to: nameless.appendingPathComponent("device.plist"))
        let deleted = try tree.device(udid: "DELETED", name: "Old", state: 1)
        try tree.writeBinary(
            ["name": "Old", "state": 1, "isDeleted": true], to: deleted.appendingPathComponent("device.plist"))
        // A stray file beside the device folders (CoreSimulator keeps device_set.plist there).
        try tree.writeBinary(["DefaultDevices": [:]], to: tree.devicesFolder.appendingPathComponent("device_set.plist"))

        let scan = simulators.devices()
        #expect(scan.items.map(\.udid) == ["GOOD"])
        let reasons = Dictionary(
            uniqueKeysWithValues: scan.skipped.map {
                (URL(fileURLWithPath: $0.path).deletingLastPathComponent().lastPathComponent, $0.reason)
            })
        #expect(reasons["GARBAGE"] == "not a property list")
        #expect(reasons["MISSING"] == "missing")
        #expect(reasons["ARRAY"] == "not a dictionary property list")
        #expect(reasons["NAMELESS"] == "device.plist has no 'name'")
        #expect(reasons["DELETED"] == "the device is marked deleted")
        #expect(scan.skipped.count == 5)
    }

    @Test func applicationsAndAppGroupsAreNamedByTheirMetadata() throws {
        try tree.device(udid: "D1", name: "iPhone 15", state: 3)
        let app = try tree.container(device: "D1", kind: "application", identifier: "com.example.notes")
        try tree.container(device: "D1", kind: "application", identifier: "com.example.alpha")
        let group = try tree.container(device: "D1", kind: "appGroup", identifier: "group.com.example.shared")
        let broken = tree.devicesFolder.appendingPathComponent(
            "D1/data/Containers/Data/Application/BROKEN", isDirectory: true)
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try tree.writeBinary(
            ["MCMMetadataUUID": "x"], to: broken.appendingPathComponent(SimulatorContainer.metadataFileName))

        let device = try #require(simulators.devices().items.first)
        let applications = device.applications()
        #expect(applications.items.map(\.identifier) == ["com.example.alpha", "com.example.notes"])
        #expect(applications.items.allSatisfy { $0.kind == .application })
        #expect(applications.skipped.map(\.reason) == ["no 'MCMMetadataIdentifier' in it"])
        let notes = try #require(applications.items.last)
        #expect(notes.folder.standardizedFileURL == app.standardizedFileURL)
        #expect(notes.uuid == app.lastPathComponent)
        #expect(notes.preferencesFolder.path.hasSuffix("/\(app.lastPathComponent)/Library/Preferences"))
        #expect(notes.temporaryFolder.lastPathComponent == "tmp")

        let groups = device.appGroups()
        #expect(groups.skipped.isEmpty)
        #expect(groups.items.map(\.identifier) == ["group.com.example.shared"])
        #expect(groups.items.first?.kind == .appGroup)
        #expect(groups.items.first?.folder.standardizedFileURL == group.standardizedFileURL)
    }

    @Test func aDeviceWithNoContainersHasNone() throws {
        try tree.device(udid: "D1", name: "iPhone 15", state: 1)
        let device = try #require(simulators.devices().items.first)
        #expect(device.applications() == SimulatorScan())
        #expect(device.appGroups() == SimulatorScan())
    }

    @Test func devicesAreChosenByBootedUDIDOrName() throws {
        try tree.device(udid: "AAAA-1111", name: "iPhone 15", state: 3)
        try tree.device(udid: "BBBB-2222", name: "iPhone 15", state: 1)
        try tree.device(udid: "CCCC-3333", name: "iPad Air", state: 1)
        #expect(try simulators.devices(matching: nil).count == 3)
        #expect(try simulators.devices(matching: "booted").map(\.udid) == ["AAAA-1111"])
        #expect(try simulators.devices(matching: "bbbb-2222").map(\.udid) == ["BBBB-2222"])
        #expect(try simulators.devices(matching: "iPhone 15").map(\.udid) == ["AAAA-1111", "BBBB-2222"])
        let error = try #require(throws: JarvisError.self) { try simulators.devices(matching: "Pixel") }
        #expect(error.code == .notFound)
        #expect(error.message.contains("iPad Air (CCCC-3333, shut down)"))
    }

    @Test func noBootedDeviceSaysHowToBootOne() throws {
        try tree.device(udid: "AAAA", name: "iPhone 15", state: 1)
        let error = try #require(throws: JarvisError.self) { try simulators.devices(matching: "booted") }
        #expect(error.message.contains("simctl boot"))
    }

    @Test func theCurrentUsersSetLivesInHome() {
        let set = SimulatorSet.forCurrentUser()
        #expect(set.devicesFolder.path.hasSuffix("Library/Developer/CoreSimulator/Devices"))
    }
}
