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

    /// What the demo host declares about its keys: every key it stores (so `rm --undeclared
    /// --dry-run` finds nothing to remove), and `theme`, which is unset until set.
    package static let catalog: KeyCatalog = {
        let prefs: GlobPattern = "com.example.demo.prefs"
        let shared: GlobPattern = "group.com.example.demo.shared"
        let cloud: GlobPattern = "com.example.demo.cloud"
        return [
            KeyDefinition(
                "theme", in: prefs, type: .string, default: "system", description: "Colour scheme of the app",
                allowedValues: ["light", "dark", "system"]),
            KeyDefinition(
                "launch_count", in: prefs, type: .integer, default: 0, description: "Times the app was opened",
                range: 0...1_000_000),
            KeyDefinition("user_name", in: prefs, type: .string, description: "Name shown in the greeting"),
            KeyDefinition("volume", in: prefs, type: .real, default: 0.5, description: "Sound volume", range: 0...1),
            KeyDefinition("onboarding_done", in: prefs, type: .boolean, default: false, description: "Onboarding finished"),
            KeyDefinition("last_open", in: prefs, type: .date, description: "When the app was last opened"),
            KeyDefinition("avatar_thumbnail", in: prefs, type: .data, description: "Small PNG of the avatar"),
            KeyDefinition("profile", in: prefs, type: .dictionary, description: "The user's profile"),
            KeyDefinition("recent_searches", in: prefs, type: .array, description: "Newest searches first"),
            KeyDefinition(
                "coach_review_config", in: prefs, type: .dictionary, description: "Coach settings (Codable JSON in Data)"),
            KeyDefinition(
                "shared_theme", in: shared, type: .string, default: "system", description: "Theme the widget uses",
                allowedValues: ["light", "dark", "system"]),
            KeyDefinition(
                "widget_refresh_minutes", in: shared, type: .integer, default: 30, description: "Widget refresh interval",
                range: 5...1440),
            KeyDefinition("last_sync", in: shared, type: .date, description: "Last sync with the app"),
            KeyDefinition(matching: "workout_*", in: cloud, type: .dictionary, description: "One workout per day"),
            KeyDefinition("last_review_date", in: cloud, type: .date, description: "Last weekly review"),
            KeyDefinition("priorities", in: cloud, type: .array, description: "The user's priorities, in order"),
            KeyDefinition("name", in: "app.json", scanner: "files", type: .string, description: "App name"),
            KeyDefinition("server", in: "*.json", scanner: "files", type: .dictionary, description: "API server"),
            KeyDefinition(
                "server", in: "env/*.json", scanner: "files", type: .dictionary, description: "API server"),
            KeyDefinition("features", in: "app.json", scanner: "files", type: .array, description: "Enabled features"),
            KeyDefinition("debug", in: "app.json", scanner: "files", type: .boolean, default: false),
            KeyDefinition(
                "replicas", in: "env/*.json", scanner: "files", type: .integer, default: 1, range: 1...100),
            KeyDefinition(
                "log_level", in: "env/*.json", scanner: "files", type: .string, default: "info",
                allowedValues: ["debug", "info", "warn", "error"]),
            KeyDefinition(matching: "*", in: "secrets", scanner: "secrets", type: .string, description: "A demo secret"),
        ]
    }()
}
