import Foundation
import JarvisCommandLine
import JarvisCore
import JarvisScanners
import JarvisSystem

/// The scanner `--simulator` serves, after telling the person what it found: which devices,
/// in which state, and how a booted device's suites are edited from here. Refuses to start
/// when the selection names no device.
func simulatorScanner(device: String?, apps: [String]) -> DefaultsScanner {
    let simulators = SimulatorSet.forCurrentUser()
    let devices: [SimulatorDevice]
    do {
        devices = try simulators.devices(matching: device)
    } catch {
        fail(error.message)
    }
    if devices.isEmpty {
        fail(
            "no Simulator devices in \(simulators.devicesFolder.path); create one in Xcode, or run on the Mac that has them"
        )
    }
    let editor = SimctlDefaultsEditor.forThisMachine()
    for device in devices {
        announce("simulator: \(device.name) (\(device.state), \(device.udid))")
    }
    for skipped in simulators.devices().skipped {
        FileHandle.standardError.write(
            Data("jarvis-agent: skipped Simulator folder \(VisibleText.escaped(String(describing: skipped)))\n".utf8))
    }
    if devices.contains(where: { $0.state.isRunning }) {
        announce(
            editor is SimctlDefaultsEditor
                ? "booted devices are edited through `xcrun simctl spawn UDID defaults`"
                : "booted devices are read-only here (no xcrun): shut a device down to edit its files, or embed the agent"
        )
    }
    return .simulator(simulators, device: device, apps: apps, editor: editor)
}
