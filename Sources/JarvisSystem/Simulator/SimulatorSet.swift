import Foundation

/// The iOS Simulator's devices on this Mac, read from CoreSimulator's folder
/// (`~/Library/Developer/CoreSimulator/Devices`): plain files, so the model is built and tested
/// anywhere, and nothing here asks `simctl` or needs Xcode.
///
/// Reading is tolerant: a device or container whose files are missing or do not parse is
/// left out and reported in ``SimulatorScan/skipped`` with the reason, never thrown, because
/// a Mac with many Simulators always has a few half-deleted ones.
///
/// ```swift
/// let simulators = SimulatorSet.forCurrentUser()
/// for device in simulators.devices().items where device.state.isBooted {
///     for app in device.applications().items { print(device.name, app.identifier) }
/// }
/// ```
public struct SimulatorSet: Sendable, Hashable {
    /// The `Devices` folder: one `<UDID>` folder per device.
    public let devicesFolder: URL

    /// The devices kept in `devicesFolder`.
    public init(devicesFolder: URL) {
        self.devicesFolder = devicesFolder
    }

    /// The devices of the user whose home folder is `home`
    /// (`<home>/Library/Developer/CoreSimulator/Devices`).
    public init(home: URL) {
        self.init(
            devicesFolder: home.appendingPathComponent("Library/Developer/CoreSimulator/Devices", isDirectory: true))
    }

    /// The devices of the user this process runs as, from `HOME` (so a test, or a run with
    /// another `HOME`, sees its own tree).
    public static func forCurrentUser() -> SimulatorSet {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return SimulatorSet(home: URL(fileURLWithPath: home, isDirectory: true))
    }

    /// Every device whose `device.plist` can be read, sorted by name then UDID; the rest are
    /// in `skipped`. A missing `Devices` folder is no devices and nothing skipped (no
    /// Simulator installed is not a problem).
    public func devices() -> SimulatorScan<SimulatorDevice> {
        var scan = SimulatorScan<SimulatorDevice>()
        for folder in SimulatorFiles.subfolders(of: devicesFolder, skipped: &scan.skipped) {
            switch SimulatorDevice.read(folder: folder) {
            case .success(let device): scan.items.append(device)
            case .failure(let skip): scan.skipped.append(skip)
            }
        }
        scan.items.sort { ($0.name, $0.udid) < ($1.name, $1.udid) }
        return scan
    }
}
