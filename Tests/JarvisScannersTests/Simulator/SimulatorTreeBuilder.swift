import Foundation

/// Builds a CoreSimulator `Devices` tree the way Xcode leaves it: binary `device.plist`
/// files and binary container metadata.
struct SimulatorTreeBuilder {
    let home: URL

    var devicesFolder: URL {
        home.appendingPathComponent("Library/Developer/CoreSimulator/Devices", isDirectory: true)
    }

    /// Adds a device folder with its `device.plist`; returns the folder.
    @discardableResult
    func device(udid: String, name: String, state: Int) throws -> URL {
        let folder = devicesFolder.appendingPathComponent(udid, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeBinary(
            [
                "UDID": udid, "name": name, "state": state, "isDeleted": false,
                "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-17-0",
                "deviceType": "com.apple.CoreSimulator.SimDeviceType.iPhone-15",
            ], to: folder.appendingPathComponent("device.plist"))
        return folder
    }

    /// Adds an app data container (`application`) or App Group container (`appGroup`)
    /// with its metadata; returns the container folder.
    @discardableResult
    func container(device udid: String, kind: String, identifier: String, uuid: String = UUID().uuidString) throws
        -> URL
    {
        let middle = kind == "appGroup" ? "Shared/AppGroup" : "Data/Application"
        let folder = devicesFolder.appendingPathComponent(
            "\(udid)/data/Containers/\(middle)/\(uuid)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Library/Preferences"), withIntermediateDirectories: true)
        try writeBinary(
            ["MCMMetadataIdentifier": identifier, "MCMMetadataUUID": uuid, "MCMMetadataVersion": 6],
            to: folder.appendingPathComponent(".com.apple.mobile_container_manager.metadata.plist"))
        return folder
    }

    func writeBinary(_ object: Any, to url: URL) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        try data.write(to: url)
    }
}
