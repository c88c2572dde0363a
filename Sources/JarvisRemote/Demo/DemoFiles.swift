import Foundation
import JarvisCore

/// The JSON config files and the key catalog of the demo (`jarvis-agent --demo`, `jarvis demo`).
package enum DemoFiles {
    /// Relative path → file text: one pretty file with nested values, one compact one in a subfolder.
    package static let files: [String: String] = [
        "app.json": """
        {
          "name": "Demo",
          "server": {
            "host": "localhost",
            "port": 8080,
            "timeouts": {"read": 2.5, "write": 5.0}
          },
          "features": ["search", "export"],
          "debug": false
        }

        """,
        "env/prod.json": #"{"server":{"host":"api.example.com","port":443},"replicas":3,"log_level":"warn"}"# + "\n",
    ]

    /// Writes the files under `folder`.
    package static func write(into folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// What the demo host declares about some of its keys: `theme` is unset until set.
    package static let catalog: KeyCatalog = [
        KeyDefinition(
            "theme", in: "com.example.demo.prefs", type: .string, default: "system",
            description: "Colour scheme of the app", allowedValues: ["light", "dark", "system"]),
        KeyDefinition(
            "launch_count", in: "com.example.demo.prefs", type: .integer, default: 0,
            description: "Times the app was opened", range: 0...1_000_000),
        KeyDefinition(
            "log_level", in: "env/*.json", scanner: "files", type: .string, default: "info",
            allowedValues: ["debug", "info", "warn", "error"]),
    ]
}
