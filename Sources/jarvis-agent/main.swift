import Dispatch
import Foundation
import JarvisCore
import JarvisRemote
import JarvisScanners

signal(SIGPIPE, SIG_IGN)

/// Prints a line at once, even when standard output is a pipe.
func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("jarvis-agent: \(message)\n".utf8))
    exit(status)
}

let options: AgentCommandLine
do {
    options = try AgentCommandLine(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.message)\nRun `jarvis-agent --help` for usage.", status: 64)
}
if options.help {
    print(AgentCommandLine.usage)
    exit(0)
}

var configuration: JarvisConfiguration = options.production ? .production : .debug
if options.readOnly { configuration.allowsEditing = false }
if options.allowReveal { configuration.allowsReveal = true }
do {
    try configuration.validate()
} catch {
    fail(options.allowReveal && options.production ? "\(error.message): drop --allow-reveal, or --production" : error.message, status: 64)
}

var scanners: [any PreferenceScanner] = []
var secretFolders: [URL] = []
var demoFolder: URL?
if options.demo {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jarvis-demo-\(UUID().uuidString.prefix(8))")
    do {
        try DemoData.write(into: folder.appendingPathComponent("defaults"))
    } catch {
        fail("cannot write the demo data into \(folder.path): \(error.localizedDescription)")
    }
    demoFolder = folder
    scanners.append(DefaultsScanner.defaults(folder: folder.appendingPathComponent("defaults")))
    do {
        try DemoData.writeSecrets(into: folder.appendingPathComponent(DemoData.secretsFolder))
    } catch {
        fail("cannot write the demo secrets into \(folder.path): \(error.localizedDescription)")
    }
    secretFolders.append(folder.appendingPathComponent(DemoData.secretsFolder))
    configuration.hide(containers: GlobPattern(DemoData.privateSuite), in: "defaults")
}
for directory in options.defaultsDirectories {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("--defaults-dir \(directory.path) is not a folder")
    }
    scanners.append(DefaultsScanner.defaults(folder: directory))
}
for directory in options.secretsDirectories {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("--secrets-dir \(directory.path) is not a folder")
    }
    secretFolders.append(directory)
}
if !secretFolders.isEmpty || options.secretService {
    scanners.append(SecretsScanner(folders: secretFolders, systemKeyring: options.secretService))
}
guard !scanners.isEmpty else {
    fail("nothing to serve: give --defaults-dir DIR or --secrets-dir DIR, or --demo to try Jarvis on sample data", status: 64)
}

let agent: JarvisAgent
do {
    let name = options.name ?? (options.demo ? "jarvis-demo" : "jarvis-agent")
    agent = try JarvisAgent.start(configuration: configuration, scanners: scanners, options: .init(name: name))
} catch {
    fail(error.message)
}

announce("jarvis-agent \(agent.record.name) (pid \(agent.record.pid)) serving on \(agent.socketPath)")
if let demoFolder { announce("demo data in \(demoFolder.path)") }
announce(configuration.editingEnabled ? "editing: on" : "editing: off (read-only)")
announce("connect with: jarvis ls   (or jarvis --agent \(agent.record.pid) ls when several agents run)")

var signalSources: [DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        agent.stop()
        if let demoFolder { try? FileManager.default.removeItem(at: demoFolder) }
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
dispatchMain()
