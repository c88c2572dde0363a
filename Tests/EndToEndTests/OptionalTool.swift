import Foundation
import Testing

/// Tools some end-to-end tests need and a fresh machine may lack (`socat`, `tmux`, libsecret,
/// a D-Bus session with GNOME Keyring, PyYAML). Where one is missing the test is skipped with
/// what to install; under CI (`CI` set, as `.ci/run` sets it after installing them all) it runs
/// anyway, so a missing tool fails there instead of hiding.
enum OptionalTool {
    /// Whether this run is CI's.
    static let inCI: Bool = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    /// The path of an executable on `PATH`, or nil.
    static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a shared library can be loaded.
    static func hasLibrary(_ name: String) -> Bool {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { return false }
        dlclose(handle)
        return true
    }

    /// Whether a python3 with PyYAML is on PATH (the workflow test loads ci.yml with it).
    static let hasPyYAML: Bool = succeeds("python3", ["-c", "import yaml"])

    /// Whether `name`, found on PATH, runs `arguments` to exit status 0 (its output dropped).
    static func succeeds(_ name: String, _ arguments: [String]) -> Bool {
        guard let executable = path(name) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether a test that needs these tools runs: they are all there, or this is CI.
    static func runs(_ names: [String]) -> Bool {
        names.allSatisfy { path($0) != nil } || inCI
    }

    /// The skip message: what is missing and how to install it.
    static func hint(_ names: [String], install: String) -> Comment {
        Comment(rawValue: "needs \(names.joined(separator: ", ")): \(install) (.ci/run installs it; under CI the test runs and fails without it)")
    }
}
