import Foundation
import JarvisCore

extension SimulatorSet {
    /// The devices a person named, as `--device` takes it: `booted` (every booted device), a
    /// UDID (any letter case), or a device name (every device of that name); nil is every device.
    /// - Throws: ``JarvisError`` `.notFound` naming the devices there are, when none matches.
    public func devices(matching selector: String?) throws(JarvisError) -> [SimulatorDevice] {
        let all = devices().items
        guard let selector else { return all }
        let matched: [SimulatorDevice]
        if selector.lowercased() == "booted" {
            matched = all.filter { $0.state.isBooted }
            if matched.isEmpty {
                throw JarvisError(
                    .notFound,
                    "no Simulator device is booted; boot one in Xcode or with `xcrun simctl boot <UDID>`, or name a shut-down device with --device"
                )
            }
            return matched
        }
        matched = all.filter { $0.udid.caseInsensitiveCompare(selector) == .orderedSame || $0.name == selector }
        guard matched.isEmpty else { return matched }
        let known = all.map { "\($0.name) (\($0.udid), \($0.state))" }
        throw JarvisError(
            .notFound,
            "no Simulator device is named or has the UDID '\(selector)'"
                + (known.isEmpty
                    ? "; there are no devices in \(devicesFolder.path)"
                    : "; devices: " + known.joined(separator: ", ")))
    }
}
