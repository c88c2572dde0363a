import Dispatch
import Foundation
import Jarvis

// The app's own settings code: typed keys, a Codable struct stored as JSON data, an
// app-group suite, date-keyed entries. Nothing here knows about Jarvis.
struct ReviewConfig: Codable {
    var frequency: String
    var reminderHour: Int
    var enabled: Bool
}

enum AppSettings {
    // UserDefaults is not Sendable on every platform, so each use makes its own object; objects
    // for one suite share their state within the process.
    static var prefs: UserDefaults? { UserDefaults(suiteName: "com.example.demo.prefs") }
    static var shared: UserDefaults? { UserDefaults(suiteName: "group.com.example.demo.shared") }
    static var cloudMirror: UserDefaults? { UserDefaults(suiteName: "com.example.demo.cloud") }
    static var secrets: UserDefaults? { UserDefaults(suiteName: "private_data") }

    static func seed() throws {
        prefs?.set("Ada Lovelace", forKey: "user_name")
        prefs?.set((prefs?.integer(forKey: "launch_count") ?? 0) + 1, forKey: "launch_count")
        prefs?.set(0.8, forKey: "volume")
        prefs?.set(true, forKey: "onboarding_done")
        prefs?.set(Date(), forKey: "last_open")
        prefs?.set(["display_name": "Ada", "tags": ["swift", "math"]], forKey: "profile")
        let review = ReviewConfig(frequency: "weekly", reminderHour: 9, enabled: true)
        prefs?.set(try JSONEncoder().encode(review), forKey: "coach_review_config")
        shared?.set("dark", forKey: "shared_theme")
        shared?.set(15, forKey: "widget_refresh_minutes")
        cloudMirror?.set(["minutes": 30, "kind": "run"], forKey: "workout_2024-01-15")
        cloudMirror?.set(["minutes": 45, "kind": "swim"], forKey: "workout_2024-01-16")
        cloudMirror?.set(["health", "family", "work"], forKey: "priorities")
        secrets?.set("sk-live-never-shown", forKey: "api_token")
        for suite in [prefs, shared, cloudMirror, secrets] { suite?.synchronize() }
    }
}

/// Prints at once, even when standard output is a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// Embedding Jarvis: a debug configuration that hides the private suite.
var configuration = JarvisConfiguration.debug
configuration.hide(containers: "private_data", in: "defaults")

let agent: JarvisAgent
do {
    try AppSettings.seed()
    agent = try JarvisAgent.start(
        configuration: configuration,
        scanners: [
            DefaultsScanner.defaults(suites: [
                "com.example.demo.prefs", "group.com.example.demo.shared", "com.example.demo.cloud", "private_data",
            ])
        ],
        options: .init(name: "DemoHost"))
    say("DemoHost (pid \(agent.record.pid)) embeds a Jarvis agent on \(agent.socketPath)")
    say("In another terminal: jarvis ls --agent DemoHost")
    say("                     jarvis set com.example.demo.prefs launch_count 5 --int --agent DemoHost")
} catch {
    FileHandle.standardError.write(Data("DemoHost: \(error)\n".utf8))
    exit(1)
}

// Show that the app sees edits made through Jarvis at once, through its own UserDefaults.
var lastSeen = AppSettings.prefs?.integer(forKey: "launch_count") ?? 0
let timer = DispatchSource.makeTimerSource(queue: .main)
timer.schedule(deadline: .now() + 1, repeating: 1)
timer.setEventHandler {
    let now = AppSettings.prefs?.integer(forKey: "launch_count") ?? 0
    if now != lastSeen {
        say("DemoHost reads launch_count = \(now)")
        lastSeen = now
    }
}
timer.resume()

let stop = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
stop.setEventHandler {
    agent.stop()
    exit(0)
}
stop.resume()
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
interrupt.setEventHandler {
    agent.stop()
    exit(0)
}
interrupt.resume()
dispatchMain()
