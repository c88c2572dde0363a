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
///
/// A name is never ambiguous: a `/` inside a device's name or an id is written `%2F` (and a
/// `%` `%25`), so a device `A/b` with an app `c` is `A%2Fb/c/…` and a device `A` with an app
/// `b/c` is `A/b%2Fc/…`; two devices whose labels still meet are named by their UDIDs.
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
        let labels = Self.labels(of: devices)
        for device in devices {
            guard let label = labels[device.udid] else { continue }
            for container in device.applications().items + device.appGroups().items
            where apps.isEmpty || apps.contains(where: { $0.matches(container.identifier) }) {
                // An app and an App Group of one id on one device: the app keeps the name.
                let prefix = label + "/" + Self.escaped(container.identifier)
                if owners[prefix] == nil { owners[prefix] = Owner(device: device, container: container) }
            }
        }
    }

    /// Each device's label as names hold it (escaped), by UDID, no two alike: devices whose
    /// labels meet (a device named `iPhone 15 (X)` beside another `iPhone 15` whose UDID is
    /// `X`) are labelled with their name and UDID, then with the UDID alone; a device that
    /// still meets another is left out, never served under another's name.
    static func labels(of devices: [SimulatorDevice]) -> [String: String] {
        var labels: [String: String] = [:]
        for device in devices { labels[device.udid] = escaped(label(of: device, among: devices)) }
        let fallbacks: [(SimulatorDevice) -> String] = [{ "\($0.name) (\($0.udid))" }, { $0.udid }]
        for fallback in fallbacks {
            let counts = Dictionary(labels.values.map { ($0, 1) }, uniquingKeysWith: +)
            for device in devices where labels[device.udid].map({ counts[$0, default: 0] > 1 }) == true {
                labels[device.udid] = escaped(fallback(device))
            }
        }
        let counts = Dictionary(labels.values.map { ($0, 1) }, uniquingKeysWith: +)
        return labels.filter { counts[$0.value, default: 0] == 1 }
    }

    /// A part of a name with `%` and `/` written `%25` and `%2F`.
    static func escaped(_ part: String) -> String {
        part.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
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
