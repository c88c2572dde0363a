import Foundation
import Testing

/// Runs the real `jarvis` and `jarvis-agent` binaries that `swift build` put beside the tests.
enum Binaries {
    /// The folder that holds the built executables.
    static let folder: URL? = {
        var candidates: [URL] = []
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: path))
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        for start in candidates {
            var folder = start.deletingLastPathComponent()
            for _ in 0..<6 {
                if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("jarvis-agent").path) {
                    return folder
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        return nil
    }()

    static func url(_ name: String) throws -> URL {
        guard let folder else {
            throw HarnessError("the built executables were not found next to the tests; run `swift build` first")
        }
        return folder.appendingPathComponent(name)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The output of one finished command.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A temporary sandbox: its own runtime folder (so agents of other tests are invisible) and
/// its own data folders, removed at the end.
final class Sandbox {
    let root: URL
    /// The runtime folder every process of the sandbox uses (a test may point it elsewhere).
    var runtime: URL
    private var agents: [Process] = []
    /// Variables to set (or, with nil, remove) for every process the sandbox starts.
    var environmentOverrides: [String: String?] = [:]

    init() throws {
        // Unix socket paths are limited to about 100 bytes: keep the root short.
        root = URL(fileURLWithPath: "/tmp").appendingPathComponent("jv-\(UUID().uuidString.prefix(8))")
        runtime = root.appendingPathComponent("run")
        // The runtime folder must be private (0700), or agents refuse it and the CLI will not read it.
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        for agent in agents where agent.isRunning {
            agent.terminate()
            agent.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: root)
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["JARVIS_RUNTIME_DIR"] = runtime.path
        // The agents' journals go to the sandbox, never to the user's state folder.
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "JARVIS_AGENT")
        for (name, value) in environmentOverrides { environment[name] = value }
        return environment
    }

    /// Starts `jarvis-agent` and waits until its discovery file appears.
    @discardableResult
    func startAgent(_ arguments: [String], log: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try Binaries.url("jarvis-agent")
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        if let log {
            // Both streams go to the log, so a test can check what the agent printed.
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
        }
        try process.run()
        agents.append(process)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
            if files.contains("\(process.processIdentifier).json") { return process }
            if !process.isRunning {
                let message =
                    log.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
                    ?? String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw HarnessError("jarvis-agent exited at start: \(message)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw HarnessError("jarvis-agent did not publish its discovery file within 20 s")
    }

    /// The sandbox's journal folder (`$XDG_STATE_HOME/jarvis/journal`).
    var journalFolder: URL { root.appendingPathComponent("state/jarvis/journal") }

    /// The journal files in the sandbox's state folder (not those set aside, nor locks).
    func journalFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: journalFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".journal") }.sorted().map { journalFolder.appendingPathComponent($0) }
    }

    /// The journal file an agent started with `arguments` keeps: the agent is started, waited
    /// for until its file is made, and stopped. The file is chosen by what the agent serves,
    /// so a test that plants a journal asks the agent where it goes.
    func journalFile(serving arguments: [String]) throws -> URL {
        let before = Set(journalFiles())
        let process = try startAgent(arguments)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let made = journalFiles().first(where: { !before.contains($0) }) { return made }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw HarnessError("jarvis-agent made no journal file within 20 s")
    }

    /// Writes `lines` as the journal an agent started with `arguments` keeps (as an earlier run
    /// left it), owner-only. The agent that finds the file's name runs without a session bus,
    /// so a test's own bus sees nobody before the agent under test.
    func plantJournal(serving arguments: [String], lines: [String]) throws {
        let bus = environmentOverrides["DBUS_SESSION_BUS_ADDRESS"]
        environmentOverrides["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + root.appendingPathComponent("no-bus").path
        defer { environmentOverrides["DBUS_SESSION_BUS_ADDRESS"] = bus }
        let file = try journalFile(serving: arguments)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        chmod(file.path, 0o600)
    }

    /// The place a journal entry of the Secret Service records (what `jarvis-agent
    /// --secret-service` serves a keyring container from).
    static var secretServicePlace: String { "secret-service of uid \(getuid())" }

    /// Starts `jarvis` with `arguments` in the background (`jarvis watch`), its output on the
    /// returned pipe, its errors dropped; the caller ends it.
    func startJarvis(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = try Binaries.url("jarvis")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Runs `jarvis` to completion.
    func jarvis(_ arguments: String...) throws -> CommandResult {
        try run(Binaries.url("jarvis"), arguments)
    }

    /// Runs a command to completion. With `limit`, a command still running after that many
    /// seconds is killed and reported as an error, so a test fails instead of hanging.
    func run(_ executable: URL, _ arguments: [String], limit: TimeInterval? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        nonisolated(unsafe) var outputData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            outputData = output.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let limit {
            let deadline = Date().addingTimeInterval(limit)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning {
                // SIGKILL: a child started from a test's worker thread never sees SIGTERM.
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                group.wait()
                throw HarnessError(
                    "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) was still running after \(Int(limit)) s")
            }
        }
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Writes a property list suite file.
    func writeSuite(_ name: String, in folder: URL, _ values: [String: Any]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: folder.appendingPathComponent("\(name).plist"))
    }

    /// Reads a property list suite file back.
    func readSuite(_ name: String, in folder: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("\(name).plist"))
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }
}
