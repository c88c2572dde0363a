import Dispatch
import Foundation
import JarvisCommandLine
import JarvisCore
import JarvisRemote
import JarvisScanners
import JarvisDemo

signal(SIGPIPE, SIG_IGN)

// SIGINT and SIGTERM are blocked before any thread exists, so every thread inherits the mask
// and neither signal is ever delivered to a thread: the main thread takes them with `sigwait`
// once the agent runs (a signal that comes earlier waits, pending, and is never lost).
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

/// Prints a line at once, even when standard output is a pipe. Its control characters are
/// shown, not obeyed: a line can hold names from files (a Simulator device's name).
func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((VisibleText.escaped(line) + "\n").utf8))
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("jarvis-agent: \(VisibleText.escapedLines(message))\n".utf8))
    exit(status)
}

let options = AgentCommandLine.parse(Array(CommandLine.arguments.dropFirst()))

// What a SIGINT or SIGTERM stops, set as start-up makes it.
var demo: DemoSetup?
var advertisement: NetworkAdvertisement?

var configuration: JarvisConfiguration = options.production ? .production : .debug
if options.readOnly { configuration.allowsEditing = false }
if options.allowReveal { configuration.allowsReveal = true }
if options.systemDomains { configuration.includesSystemContainers = true }
options.hiddenContainers.forEach { configuration.hide(containers: $0) }
options.hiddenKeys.forEach { configuration.hide(keys: $0) }
do {
    try configuration.validate()
} catch {
    fail(
        options.allowReveal && options.production
            ? "\(error.message): drop --allow-reveal, or --production" : error.message, status: 64)
}

var scanners: [any PreferenceScanner] = []
if options.demo {
    do {
        let setup = try DemoSetup.prepare()
        setup.configure(&configuration)
        demo = setup
    } catch {
        fail(error.message)
    }
}
/// Refuses a folder option that does not name a folder.
func requireFolder(_ url: URL, option: String) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("\(option) \(url.path) is not a folder")
    }
}

// One scanner per kind, over every folder given for it (the demo's first).
options.defaultsDirectories.forEach { requireFolder($0, option: "--defaults-dir") }
options.filesDirectories.forEach { requireFolder($0, option: "--files") }
options.secretsDirectories.forEach { requireFolder($0, option: "--secrets-dir") }
let defaultsFolders = (demo.map { [$0.defaultsFolder] } ?? []) + options.defaultsDirectories
let fileFolders = (demo.map { [$0.filesFolder] } ?? []) + options.filesDirectories
let secretFolders = (demo.map { [$0.secretsFolder] } ?? []) + options.secretsDirectories
if !defaultsFolders.isEmpty {
    scanners.append(DefaultsScanner.defaults(folders: defaultsFolders, cacheBytes: options.cacheBytes))
}
if options.simulator { scanners.append(simulatorScanner(device: options.device, apps: options.apps)) }
if !fileFolders.isEmpty {
    scanners.append(
        JSONFilesScanner.jsonFiles(in: fileFolders, exclude: options.excluded, cacheBytes: options.cacheBytes))
}
if !secretFolders.isEmpty || options.secretService {
    scanners.append(SecretsScanner(folders: secretFolders, systemKeyring: options.secretService))
}
guard !scanners.isEmpty else {
    fail(
        "nothing to serve: give --defaults-dir, --files, --secrets-dir, --secret-service or --simulator, or --demo to try Jarvis on sample data",
        status: 64)
}

let agent: JarvisAgent
do {
    let name = options.name ?? (options.demo ? "jarvis-demo" : options.simulator ? "jarvis-simulator" : "jarvis-agent")
    var agentOptions = JarvisAgent.Options(name: name, tcp: options.listen)
    if let maxConnections = options.maxConnections { agentOptions.maxConnections = maxConnections }
    if options.idleTimeoutGiven { agentOptions.tcpIdleTimeout = options.idleTimeout }
    if let authTimeout = options.authTimeout { agentOptions.tcpAuthenticationTimeout = authTimeout }
    if let requestTimeout = options.requestTimeout { agentOptions.requestTimeout = requestTimeout }
    if let outputTimeout = options.outputTimeout { agentOptions.outputStallTimeout = outputTimeout }
    if let file = options.tokenFile { agentOptions.tcpToken = readToken(file) }
    if let bytes = options.journalBytes { agentOptions.journalBytes = bytes }
    agent = try JarvisAgent.start(configuration: configuration, scanners: scanners, options: agentOptions)
} catch {
    demo?.cleanUp()
    fail(error.message)
}

announce("jarvis-agent \(agent.record.name) (pid \(agent.record.pid)) serving on \(agent.endpoint.target)")
if let demo { announce("demo data in \(demo.folder.path)") }
announce(configuration.editingEnabled ? "editing: on" : "editing: off (read-only)")
for problem in agent.hub.journal.problems { announce("journal: \(problem)") }
if let tcp = agent.tcpEndpoint, let token = agent.token {
    announce("tcp: \(tcp)")
    announce("token: \(token)")
    announce("remote: jarvis --agent \(tcp) --token \(token) ls   (unencrypted: tunnel it over SSH off this machine)")
}
if options.advertise {
    do {
        advertisement = try agent.advertiseOnNetwork(bundleID: nil, printsToken: false)
        announce("bonjour: advertised as '\(agent.record.name)' (_jarvis._tcp); find it with `jarvis agents --network`")
    } catch {
        agent.stop()
        fail(error.message)
    }
}
announce("connect with: jarvis ls   (or jarvis --agent \(agent.record.pid) ls when several agents run)")

// Until SIGINT or SIGTERM: then the agent stops, removing its socket and discovery file.
var received: Int32 = 0
while sigwait(&stopSignals, &received) != 0 {}
advertisement?.stop()
agent.stop()
demo?.cleanUp()
exit(0)
