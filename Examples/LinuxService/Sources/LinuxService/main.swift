import Foundation
import Jarvis

// SIGTERM (systemd's stop) and SIGINT are blocked before any thread exists, so every thread
// inherits the mask and neither is delivered to a thread: the main thread takes them with
// `sigwait` once the agent runs, and a signal that comes earlier waits, pending, never lost.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
signal(SIGPIPE, SIG_IGN)

/// Writes one line to standard output at once (the journal reads it through a pipe).
func log(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes one line to standard error and ends the service.
func fail(_ line: String) -> Never {
    FileHandle.standardError.write(Data(("LinuxService: " + line + "\n").utf8))
    exit(1)
}

// Where the service keeps its config and its secrets: systemd's ConfigurationDirectory= and
// LoadCredential= set these variables; the defaults suit a run by hand.
let environment = ProcessInfo.processInfo.environment
let configFolder = URL(fileURLWithPath: environment["CONFIGURATION_DIRECTORY"] ?? "config")
let secretsFolder = environment["CREDENTIALS_DIRECTORY"].map { URL(fileURLWithPath: $0) }

// Read-only unless the operator turns editing on for this run. A service in production keeps
// `.production`: nobody can change its config or see its secrets through Jarvis.
var configuration = JarvisConfiguration.production
if environment["JARVIS_EDITING"] == "1" { configuration = .debug }

let agent: JarvisAgent
do {
    // `.secrets(folders:)` serves the secret files alone: no desktop keyring on a server.
    var scanners: [any PreferenceScanner] = [JSONFilesScanner.jsonFiles(in: [configFolder])]
    if let secretsFolder { scanners.append(SecretsScanner.secrets(folders: [secretsFolder])) }
    agent = try JarvisAgent.start(
        configuration: configuration, scanners: scanners, options: .init(name: "LinuxService"))
} catch {
    fail(error.message)
}
log("LinuxService (pid \(agent.record.pid)): Jarvis agent on \(agent.socketPath)")
log("inspect it with: jarvis --agent LinuxService ls")

// The service's own work would run here, on its own threads or queues.

// Until SIGTERM or SIGINT: stop the agent (its socket and discovery file go), then exit 0.
var received: Int32 = 0
while sigwait(&stopSignals, &received) != 0 {}
agent.stop()
log("LinuxService: stopped on signal \(received)")
exit(0)
