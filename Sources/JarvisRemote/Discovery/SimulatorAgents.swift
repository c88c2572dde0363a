import Foundation

/// Agents embedded in apps that run in the iOS Simulator, found from the Mac.
///
/// A Simulator app runs as the Mac's user with its own temporary folder,
/// `~/Library/Developer/CoreSimulator/Devices/<UDID>/data/Containers/Data/Application/<UUID>/tmp/`,
/// so an embedded agent's default runtime folder is `tmp/jarvis-<uid>/` there and its record
/// `<id>.json` inside it. Only booted devices are looked at (`state` 3 in the device's
/// `device.plist`); the app's bundle id is `MCMMetadataIdentifier` in its container's metadata.
/// Every such folder and record passes the same checks as the runtime folder's.
///
/// Plain Foundation (property lists, folders), so Linux builds and tests it on a tree a test makes.
package enum SimulatorAgents {
    /// The Simulator's device state that means booted.
    package static let bootedState = 3

    /// The home folder whose Simulator devices are searched: `$HOME`, else this user's.
    package static func home(environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// The live agents in the app containers of the booted devices under `home`.
    package static func running(home: String) -> [AgentRecord] {
        let devices = home + "/Library/Developer/CoreSimulator/Devices"
        var records: [AgentRecord] = []
        for udid in entries(of: devices) {
            let device = devices + "/" + udid
            guard let info = propertyList(device + "/device.plist"),
                ((info["state"] as? Int) ?? (info["state"] as? NSNumber)?.intValue) == bootedState
            else { continue }
            let deviceName = info["name"] as? String ?? udid
            let applications = device + "/data/Containers/Data/Application"
            for container in entries(of: applications) {
                let folder = applications + "/" + container + "/tmp/" + RuntimeDirectory.defaultName
                guard PrivatePath.folderProblem(folder) == nil else { continue }
                let metadata = propertyList(
                    applications + "/" + container + "/.com.apple.mobile_container_manager.metadata.plist")
                let bundleID = metadata?["MCMMetadataIdentifier"] as? String
                for var record in AgentDirectory.records(in: RuntimeDirectory(url: URL(fileURLWithPath: folder))) {
                    record.device = deviceName
                    record.bundleID = bundleID
                    records.append(record)
                }
            }
        }
        return records
    }

    private static func entries(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// A property list (binary or XML) whose top level is a dictionary; nil for anything else.
    private static func propertyList(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }
}
