import Foundation
import JarvisCore

/// Edits a running Simulator device's suites with the device's own `defaults` tool,
/// `xcrun simctl spawn <UDID> defaults write|delete <plist path> <key> …`, so the device's
/// preferences daemon stores the change and the running app sees it.
public struct SimctlDefaultsEditor: SimulatorDefaultsEditor {
    /// The `xcrun` executable.
    public var xcrun: URL
    /// How long one `defaults` run may take before it is stopped and the edit fails.
    public var timeout: Duration

    /// An editor running `xcrun` at the given path.
    public init(xcrun: URL, timeout: Duration = .seconds(30)) {
        self.xcrun = xcrun
        self.timeout = timeout
    }

    /// The editor for this machine: ``SimctlDefaultsEditor`` when `xcrun` is on `PATH`,
    /// otherwise a ``RefusingDefaultsEditor`` that says why.
    public static func forThisMachine(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any SimulatorDefaultsEditor {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder), isDirectory: true).appendingPathComponent("xcrun")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return SimctlDefaultsEditor(xcrun: candidate)
            }
        }
        return RefusingDefaultsEditor(reason: "xcrun, which comes with Xcode on a Mac, is not on this machine's PATH")
    }

    /// The arguments given to `xcrun` for an edit.
    /// - Throws: ``JarvisError`` `.typeMismatch` for a value `defaults` cannot be given.
    public static func arguments(for edit: SimulatorDefaultsEdit) throws(JarvisError) -> [String] {
        let command = ["simctl", "spawn", edit.udid, "defaults"]
        switch edit.change {
        case .delete:
            return command + ["delete", edit.plistPath, edit.key]
        case .set(let value):
            return command + ["write", edit.plistPath, edit.key] + (try valueArguments(value, key: edit.key))
        }
    }

    /// `defaults write` takes scalars with a type flag, and anything else as a property list
    /// in XML, which it parses: that keeps dates, nested arrays and dictionaries exact.
    static func valueArguments(_ value: PreferenceValue, key: String) throws(JarvisError) -> [String] {
        switch value {
        case .string(let string): return ["-string", string]
        case .integer(let integer): return ["-integer", String(integer)]
        case .real(let real):
            guard real.isFinite else {
                throw JarvisError(.typeMismatch, "'\(key)': \(real) cannot be stored in a property list")
            }
            return ["-float", "\(real)"]
        case .boolean(let boolean): return ["-bool", boolean ? "true" : "false"]
        case .data(let data): return ["-data", data.map { String(format: "%02x", $0) }.joined()]
        // A big integer goes as XML too: `-integer` reads 64 signed bits only.
        case .date, .array, .dictionary, .bigNumber: return [try xmlFragment(value, key: key)]
        }
    }

    /// The value as XML property-list text without the document header: what `defaults`
    /// accepts as a value (`'<dict><key>a</key><integer>1</integer></dict>'`).
    static func xmlFragment(_ value: PreferenceValue, key: String) throws(JarvisError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try PropertyListCodec.write(try PropertyList(value, path: key), as: .xml)
        } catch {
            throw JarvisError(.typeMismatch, "'\(key)' cannot be stored in a property list: \(error.message)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let open = text.range(of: "<plist version=\"1.0\">"),
            let close = text.range(of: "</plist>", options: .backwards)
        else {
            throw JarvisError(.typeMismatch, "'\(key)' did not convert to an XML property list")
        }
        return text[open.upperBound..<close.lowerBound]
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }

    /// Runs `xcrun` with the edit's arguments and waits for it (at most ``timeout``).
    public func apply(_ edit: SimulatorDefaultsEdit) throws(JarvisError) {
        try Self.run(xcrun, arguments: try Self.arguments(for: edit), timeout: timeout)
    }
}
