import Foundation

/// A CoreSimulator tree inside a test's own HOME, written as Xcode leaves it: binary
/// `device.plist` files, binary container metadata, binary suites.
struct SimulatorTree {
    let home: URL

    var devices: URL {
        home.appendingPathComponent("Library/Developer/CoreSimulator/Devices", isDirectory: true)
    }

    /// Adds a device; `state` 3 is booted, 1 shut down.
    func addDevice(udid: String, name: String, state: Int) throws {
        let folder = devices.appendingPathComponent(udid, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeBinary(
            [
                "UDID": udid, "name": name, "state": state, "isDeleted": false,
                "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-17-0",
            ], to: folder.appendingPathComponent("device.plist"))
    }

    /// Adds an app's data container (or, with `group`, an App Group container); returns it.
    func addContainer(device udid: String, identifier: String, group: Bool = false) throws -> URL {
        let middle = group ? "Shared/AppGroup" : "Data/Application"
        let folder = devices.appendingPathComponent(
            "\(udid)/data/Containers/\(middle)/\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Library/Preferences"), withIntermediateDirectories: true)
        try writeBinary(
            ["MCMMetadataIdentifier": identifier, "MCMMetadataVersion": 6],
            to: folder.appendingPathComponent(".com.apple.mobile_container_manager.metadata.plist"))
        return folder
    }

    /// Writes a binary suite into a container's `Library/Preferences`; returns the file.
    @discardableResult
    func addSuite(_ name: String, in container: URL, _ values: [String: Any]) throws -> URL {
        let file = container.appendingPathComponent("Library/Preferences/\(name).plist")
        try writeBinary(values, to: file)
        return file
    }

    func writeBinary(_ object: Any, to url: URL) throws {
        try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0).write(to: url)
    }
}
