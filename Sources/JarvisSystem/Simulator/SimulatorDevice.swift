import Foundation
import JarvisCore

/// One Simulator device, as its `device.plist` describes it.
public struct SimulatorDevice: Sendable, Hashable {
    /// The device's identifier, also the name of its folder.
    public var udid: String
    /// The name Xcode shows (`iPhone 15`); several devices may share one.
    public var name: String
    /// Booted, shut down, and the states between.
    public var state: SimulatorDeviceState
    /// The runtime identifier (`com.apple.CoreSimulator.SimRuntime.iOS-17-0`), when recorded.
    public var runtime: String?
    /// The device type identifier (`com.apple.CoreSimulator.SimDeviceType.iPhone-15`), when recorded.
    public var deviceType: String?
    /// The device's folder, `Devices/<UDID>`.
    public var folder: URL

    /// A device, for tests and for callers that know one already.
    public init(
        udid: String, name: String, state: SimulatorDeviceState, runtime: String? = nil,
        deviceType: String? = nil, folder: URL
    ) {
        self.udid = udid
        self.name = name
        self.state = state
        self.runtime = runtime
        self.deviceType = deviceType
        self.folder = folder
    }

    /// The device's own file system root, `Devices/<UDID>/data`.
    public var dataFolder: URL {
        folder.appendingPathComponent("data", isDirectory: true)
    }

    /// The runtime in words (`iOS 17.0`), from the identifier; nil when none is recorded.
    public var runtimeName: String? {
        guard let runtime else { return nil }
        let last = runtime.split(separator: ".").last.map(String.init) ?? runtime
        guard let dash = last.firstIndex(of: "-") else { return last }
        let version = last[last.index(after: dash)...].replacingOccurrences(of: "-", with: ".")
        return "\(last[..<dash]) \(version)"
    }
}

/// A Simulator device's state, as `device.plist` stores it (a number).
///
/// Only ``booted`` matters to Jarvis: a booted device's apps may be running, and its
/// preferences daemon may hold their suites in memory.
public struct SimulatorDeviceState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// CoreSimulator's number for the state.
    public var rawValue: Int

    /// A state from CoreSimulator's number; unknown numbers are kept as they are.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Being created.
    public static let creating = SimulatorDeviceState(rawValue: 0)
    /// Shut down: nothing runs, its files can be edited directly.
    public static let shutdown = SimulatorDeviceState(rawValue: 1)
    /// Starting.
    public static let booting = SimulatorDeviceState(rawValue: 2)
    /// Running.
    public static let booted = SimulatorDeviceState(rawValue: 3)
    /// Stopping.
    public static let shuttingDown = SimulatorDeviceState(rawValue: 4)

    /// Whether the device runs (booted, or on its way up or down), so that its apps and its
    /// preferences daemon may be using its files.
    public var isRunning: Bool { self == .booted || self == .booting || self == .shuttingDown }

    /// Whether the device is booted.
    public var isBooted: Bool { self == .booted }

    /// `booted`, `shut down`, … as a person says it.
    public var description: String {
        switch self {
        case .creating: "creating"
        case .shutdown: "shut down"
        case .booting: "booting"
        case .booted: "booted"
        case .shuttingDown: "shutting down"
        default: "state \(rawValue)"
        }
    }
}

extension SimulatorDevice {
    /// The apps installed on the device: one data container each, named by bundle id.
    public func applications() -> SimulatorScan<SimulatorContainer> {
        SimulatorContainer.read(
            kind: .application, in: dataFolder.appendingPathComponent("Containers/Data/Application", isDirectory: true))
    }

    /// The App Group containers on the device, named by group id (`group.com.example`).
    public func appGroups() -> SimulatorScan<SimulatorContainer> {
        SimulatorContainer.read(
            kind: .appGroup, in: dataFolder.appendingPathComponent("Containers/Shared/AppGroup", isDirectory: true))
    }

    /// Reads `folder/device.plist`; a reason when it is missing, unreadable or lacks a name.
    package static func read(folder: URL) -> Result<SimulatorDevice, SimulatorSkip> {
        let file = folder.appendingPathComponent("device.plist", isDirectory: false)
        let dictionary: [String: PropertyList]
        switch SimulatorFiles.dictionary(at: file) {
        case .success(let read): dictionary = read
        case .failure(let skip): return .failure(skip)
        }
        guard let name = SimulatorFiles.string(dictionary["name"]), !name.isEmpty else {
            return .failure(SimulatorSkip(path: file.path, reason: "device.plist has no 'name'"))
        }
        guard let stateNumber = SimulatorFiles.integer(dictionary["state"]) else {
            return .failure(SimulatorSkip(path: file.path, reason: "device.plist has no numeric 'state'"))
        }
        if dictionary["isDeleted"] == .boolean(true) {
            return .failure(SimulatorSkip(path: file.path, reason: "the device is marked deleted"))
        }
        let udid =
            SimulatorFiles.string(dictionary["UDID"]).flatMap { $0.isEmpty ? nil : $0 } ?? folder.lastPathComponent
        return .success(
            SimulatorDevice(
                udid: udid, name: name, state: SimulatorDeviceState(rawValue: stateNumber),
                runtime: SimulatorFiles.string(dictionary["runtime"]),
                deviceType: SimulatorFiles.string(dictionary["deviceType"]),
                folder: folder))
    }
}
