import Foundation
import JarvisSystem

/// Agents embedded in apps that run in the iOS Simulator, found from the Mac.
///
/// A Simulator app runs as the Mac's user with its own temporary folder,
/// `~/Library/Developer/CoreSimulator/Devices/<UDID>/data/Containers/Data/Application/<UUID>/tmp/`,
/// so an embedded agent's default runtime folder is `tmp/jarvis-<uid>/` there (see
/// ``RuntimeDirectory``) and its record `<pid>.json` inside it. Only booted devices are looked
/// at; the device's name and the app's bundle id come from the shared ``SimulatorSet`` model.
/// Every such folder and record passes the same checks as the runtime folder's.
package enum SimulatorAgents {
    /// The home folder whose Simulator devices are searched: `$HOME`, else this user's.
    package static func home(environment: [String: String]) -> URL {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
    }

    /// The live agents in the app containers of the booted devices under `home`.
    package static func running(home: URL) -> [AgentRecord] {
        var records: [AgentRecord] = []
        for device in SimulatorSet(home: home).devices().items where device.state.isBooted {
            for app in device.applications().items {
                let folder = app.temporaryFolder.appendingPathComponent(RuntimeDirectory.defaultName)
                guard PrivatePath.folderProblem(folder.path) == nil else { continue }
                for var record in AgentDirectory.records(in: RuntimeDirectory(url: folder)) {
                    record.device = device.name
                    record.bundleID = app.identifier
                    records.append(record)
                }
            }
        }
        return records
    }
}
