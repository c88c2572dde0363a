import Foundation
import JarvisCore
import JarvisSystem

/// The preference folders a Simulator sidecar serves, under the names clients see.
///
/// A container is named `<device>/<owner>/<suite>`: the device's name, the bundle id of the
/// app (or the group id of the App Group) whose container holds the suite, and the suite.
/// `iPhone 15/com.example.notes/com.example.notes` is the app's standard suite, and
/// `iPhone 15/group.com.example.shared/group.com.example.shared` its App Group's. When
/// several served devices share a name, the runtime is added (`iPhone 15 (iOS 17.0)`), and
/// the UDID when that is not enough. The device's state is not part of the name, so an
/// address stays the same when the device boots or shuts down.
struct SimulatorSuiteTable: Sendable {
    /// One app or App Group container on one device.
    struct Owner: Sendable {
        var device: SimulatorDevice
        var container: SimulatorContainer
    }

    /// Owners by `<device>/<owner>`, the prefix of their suites' names.
    var owners: [String: Owner] = [:]

    /// Reads the devices `selector` names and their containers whose id matches `apps`
    /// (every container when `apps` is empty).
    /// - Throws: ``JarvisError`` `.notFound` when the selector names no device.
    init(simulators: SimulatorSet, selector: String?, apps: [GlobPattern]) throws(JarvisError) {
        let devices = try simulators.devices(matching: selector)
        for device in devices {
            let label = Self.label(of: device, among: devices)
            for container in device.applications().items + device.appGroups().items
            where apps.isEmpty || apps.contains(where: { $0.matches(container.identifier) }) {
                owners["\(label)/\(container.identifier)"] = Owner(device: device, container: container)
            }
        }
    }

    /// The owner and suite of a container name; nil when the name is not one of this table's.
    func locate(_ name: String) -> (owner: Owner, suite: String)? {
        guard let slash = name.lastIndex(of: "/"), let owner = owners[String(name[..<slash])] else { return nil }
        let suite = String(name[name.index(after: slash)...])
        return suite.isEmpty ? nil : (owner, suite)
    }

    /// The device's name, made unique among `devices` with the runtime, then the UDID.
    static func label(of device: SimulatorDevice, among devices: [SimulatorDevice]) -> String {
        let sameName = devices.filter { $0.name == device.name }
        guard sameName.count > 1 else { return device.name }
        if let runtime = device.runtimeName, sameName.filter({ $0.runtimeName == runtime }).count == 1 {
            return "\(device.name) (\(runtime))"
        }
        return "\(device.name) (\(device.udid))"
    }
}
