import Foundation
import JarvisCore
import JarvisRemote
import JarvisScanners

/// Real storage for inspector tests: a defaults suite as a property-list file, a JSON config
/// file and a folder of secret files, in a fresh short-named folder.
final class InspectorFixture {
    let root: URL
    let defaults: URL
    let files: URL
    let secrets: URL

    init() throws {
        var template = Array("/tmp/jvi.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw JarvisError(.storage, "mkdtemp failed") }
        root = URL(fileURLWithPath: String(cString: made))
        defaults = root.appendingPathComponent("prefs")
        files = root.appendingPathComponent("config")
        secrets = root.appendingPathComponent("vault")
        for folder in [defaults, files, secrets] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try writeSuite(
            "com.example.app",
            [
                "user_name": "Ada", "launch_count": 3, "volume": 0.5,
                "profile": ["tags": ["swift", "ios"], "created": Date(timeIntervalSince1970: 1_700_000_000)],
            ])
        try Data(#"{"server": {"host": "localhost", "port": 8080, "write": 5.0}, "debug": true}"#.utf8)
            .write(to: files.appendingPathComponent("app.json"))
        try Data("hunter2".utf8).write(to: secrets.appendingPathComponent("api_token"))
        chmod(secrets.appendingPathComponent("api_token").path, 0o600)
    }

    func writeSuite(_ name: String, _ values: [String: Any]) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: defaults.appendingPathComponent(name + ".plist"))
    }

    func readSuite(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: defaults.appendingPathComponent(name + ".plist"))
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }

    /// The scanners over the fixture's folders.
    var scanners: [any PreferenceScanner] {
        [
            DefaultsScanner.defaults(folder: defaults), JSONFilesScanner.jsonFiles(in: [files]),
            SecretsScanner.secrets(folders: [secrets], secretService: false),
        ]
    }

    /// A configuration with a key catalog for the suite: `theme` declared with nothing stored.
    static func configuration(reveal: Bool = true, production: Bool = false) -> JarvisConfiguration {
        var configuration = production ? JarvisConfiguration.production : JarvisConfiguration.debug
        configuration.allowsReveal = reveal && !production
        configuration.catalog = KeyCatalog([
            KeyDefinition(
                "theme", in: "com.example.app", type: .string, default: "system", description: "Colour scheme",
                allowedValues: ["light", "dark", "system"]),
            KeyDefinition("launch_count", in: "com.example.app", type: .integer, default: 0, range: 0...100),
        ])
        return configuration
    }

    /// A hub over the fixture's scanners.
    func hub(_ configuration: JarvisConfiguration = InspectorFixture.configuration()) -> JarvisHub {
        let hub = JarvisHub(configuration: configuration)
        for scanner in scanners { hub.register(scanner) }
        return hub
    }

    /// A real agent on a socket in the fixture's folder.
    func agent(_ configuration: JarvisConfiguration = InspectorFixture.configuration()) throws -> JarvisAgent {
        let runtime = root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        var options = JarvisAgent.Options(name: "inspector-test", runtimeDirectory: runtime)
        // Each fixture's journal in its own folder, never the user's state folder.
        options.journalFolder = root.appendingPathComponent("journal")
        return try JarvisAgent.start(configuration: configuration, scanners: scanners, options: options)
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

/// Waits until `condition` holds, polling; fails after a generous limit (never a fixed sleep).
func eventually(_ what: String, timeout: Duration = .seconds(20), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.02)
    }
    throw JarvisError(.unavailable, "timed out waiting for \(what)")
}
