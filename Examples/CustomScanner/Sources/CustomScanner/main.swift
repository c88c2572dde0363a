import Dispatch
import Foundation
import JarvisCore
import JarvisRemote

// A host with its own scanner. Run it, then in another terminal:
//   jarvis ls
//   jarvis set features new_onboarding true --bool
//   jarvis rm flags:features --match 'beta_*' --dry-run
let flags = FeatureFlagsScanner(["new_onboarding": false, "beta_search": true, "beta_export": false])

var configuration = JarvisConfiguration.debug
configuration.catalog = [
    KeyDefinition(
        "new_onboarding", in: "features", scanner: "flags", type: .boolean, default: false,
        description: "The redesigned first-run flow"),
    KeyDefinition(
        "kill_switch", in: "features", scanner: "flags", type: .boolean, default: false,
        description: "Turns every beta feature off"),
]

let agent: JarvisAgent
do {
    agent = try JarvisAgent.start(
        configuration: configuration, scanners: [flags], options: .init(name: "custom-scanner"))
} catch {
    FileHandle.standardError.write(Data("custom-scanner: \(error.message)\n".utf8))
    exit(1)
}
print("custom-scanner serving on \(agent.socketPath); try `jarvis ls`. Ctrl-C stops it.")

// The host's own work: report when a client flips the flag.
let timer = DispatchSource.makeTimerSource(queue: .main)
var lastSeen = flags.isOn("new_onboarding")
timer.schedule(deadline: .now() + 1, repeating: 1)
timer.setEventHandler {
    let now = flags.isOn("new_onboarding")
    if now != lastSeen {
        print("new_onboarding is now \(now ? "on" : "off")")
        lastSeen = now
    }
}
timer.resume()

signal(SIGINT, SIG_IGN)
let stop = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
stop.setEventHandler {
    agent.stop()
    exit(0)
}
stop.resume()
dispatchMain()
