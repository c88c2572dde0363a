import Foundation
import JarvisRemote

/// The sample data `jarvis-agent --demo` serves: the shapes host apps really store, from the
/// design notes Jarvis grew from (typed keys, Codable structs as JSON data, app-group suites,
/// iCloud mirrors, date-keyed entries), plus one suite the demo's configuration hides.
package enum DemoData {
    /// The suite that the demo configuration excludes, to show that hidden means hidden.
    package static let privateSuite = "private_data"

    package static func suites(now: Date = Date()) -> [String: [String: Any]] {
        let coachConfig = #"{"frequency":"weekly","reminderHour":9,"enabled":true,"days":["mon","thu"]}"#
        let day: TimeInterval = 86_400
        return [
            "com.example.demo.prefs": [
                "user_name": "Ada Lovelace",
                "launch_count": 42,
                "volume": 0.8,
                "onboarding_done": true,
                "last_open": now,
                "avatar_thumbnail": Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
                "profile": [
                    "display_name": "Ada",
                    "tags": ["swift", "math"],
                    "created": Date(timeIntervalSince1970: 1_700_000_000),
                    "limits": ["daily": 3, "ratio": 1.5] as [String: Any],
                ] as [String: Any],
                "recent_searches": ["engines", "looms", "bernoulli"],
                "coach_review_config": Data(coachConfig.utf8),
            ],
            "group.com.example.demo.shared": [
                "shared_theme": "dark",
                "widget_refresh_minutes": 15,
                "last_sync": now.addingTimeInterval(-3600),
            ],
            "com.example.demo.cloud": [
                "workout_2024-01-15": ["minutes": 30, "kind": "run"] as [String: Any],
                "workout_2024-01-16": ["minutes": 45, "kind": "swim"] as [String: Any],
                "workout_2024-01-18": ["minutes": 20, "kind": "yoga"] as [String: Any],
                "last_review_date": now.addingTimeInterval(-7 * day),
                "priorities": ["health", "family", "work"],
            ],
            privateSuite: [
                "api_token": "sk-demo-0123456789abcdef",
                "user_email": "ada@example.com",
            ],
        ]
    }

    /// Writes the suites as XML property lists into `folder`.
    package static func write(into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (suite, values) in suites() {
            let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
            try data.write(to: folder.appendingPathComponent("\(suite).plist"), options: .atomic)
        }
    }

    /// The demo's folder of secret files, served by the `secrets` scanner (masked unless revealed).
    package static let secretsFolder = "secrets"

    package static let secrets: [String: String] = [
        "db_password": "correct-horse-battery-staple",
        "stripe_api_key": "sk_test_demo_4eC39HqLyjWDarjtT1zdp7dc",
        "session_signing_key": "c2lnbmluZy1rZXktZm9yLXRoZS1kZW1v",
    ]

    /// Writes one file per secret, as Docker and Kubernetes lay them out, in a 0700 folder.
    /// Each file is owner-only from its first byte: made exclusively with mode 0600, written,
    /// then renamed into place (never made with the umask's mode and narrowed afterwards).
    package static func writeSecrets(into folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (name, value) in secrets {
            try PrivatePath.replaceFile(folder.appendingPathComponent(name).path, with: Array(value.utf8), mode: 0o600)
        }
    }
}
