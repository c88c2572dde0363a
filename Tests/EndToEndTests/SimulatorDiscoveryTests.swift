import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `jarvis agents` finds agents embedded in apps of booted iOS Simulator devices, on a
/// CoreSimulator tree made here (binary plists, a HOME of its own) with real agents whose
/// `TMPDIR` is an app container's `tmp/`, as the Simulator sets it.
@Suite(.serialized) struct SimulatorDiscoveryTests {
    let sandbox: Sandbox
    let home: URL
    let booted = UUID().uuidString
    let shutDown = UUID().uuidString

    init() throws {
        sandbox = try Sandbox()
        home = sandbox.root.appendingPathComponent("home")
        try device(booted, name: "iPhone 15 Pro", state: 3)
        try device(shutDown, name: "iPad Air", state: 1)
    }

    var devices: URL { home.appendingPathComponent("Library/Developer/CoreSimulator/Devices") }

    func binary(_ object: Any, to url: URL) throws {
        try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0).write(to: url)
    }

    func device(_ udid: String, name: String, state: Int) throws {
        let folder = devices.appendingPathComponent(udid)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try binary(
            ["UDID": udid, "name": name, "state": state, "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-17-0"],
            to: folder.appendingPathComponent("device.plist"))
    }

    /// An app (`Data/Application`) or App Group (`Shared/AppGroup`) container with its metadata.
    func container(on udid: String, _ kind: String, _ identifier: String) throws -> URL {
        let folder = devices.appendingPathComponent("\(udid)/data/Containers/\(kind)/\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try binary(
            ["MCMMetadataIdentifier": identifier, "MCMMetadataVersion": 6],
            to: folder.appendingPathComponent(".com.apple.mobile_container_manager.metadata.plist"))
        return folder
    }

    /// Starts a real demo agent as an app embedding it would run: its temporary folder is
    /// the container's `tmp/`, and nothing else tells it where to go.
    func startAgent(named name: String, in container: URL) throws -> Process {
        let runtime = container.appendingPathComponent("tmp/jarvis-\(getuid())")
        let cliRuntime = sandbox.runtime
        sandbox.runtime = runtime
        sandbox.environmentOverrides = [
            "JARVIS_RUNTIME_DIR": nil, "XDG_RUNTIME_DIR": nil, "HOME": home.path,
            "TMPDIR": container.appendingPathComponent("tmp").path,
        ]
        defer {
            sandbox.runtime = cliRuntime
            sandbox.environmentOverrides = ["HOME": home.path]
        }
        return try sandbox.startAgent(["--demo", "--name", name])
    }

    @Test func agentsOfBootedSimulatorAppsAreListedAndReachedByBundleID() throws {
        let notes = try container(on: booted, "Data/Application", "com.example.notes")
        let tasks = try container(on: shutDown, "Data/Application", "com.example.tasks")
        _ = try container(on: booted, "Shared/AppGroup", "group.com.example.shared")
        let notesAgent = try startAgent(named: "notes-host", in: notes)
        let tasksAgent = try startAgent(named: "tasks-host", in: tasks)
        // A dead app's record beside the live one: not listed, and removed.
        let stale = notes.appendingPathComponent("tmp/jarvis-\(getuid())/999999.json")
        try Data(#"{"pid":999999,"name":"gone","socket":"/nonexistent.sock"}"#.utf8).write(to: stale)

        let listing = try sandbox.jarvis("agents")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("notes-host"))
        #expect(listing.stdout.contains("iPhone 15 Pro"))
        #expect(listing.stdout.contains("com.example.notes"))
        #expect(!listing.stdout.contains("tasks-host"))
        #expect(!listing.stdout.contains("iPad Air"))
        #expect(!listing.stdout.contains("gone"))
        #expect(!FileManager.default.fileExists(atPath: stale.path))

        let json = try sandbox.jarvis("agents", "--json")
        let records = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(records?.count == 1)
        #expect(records?.first?["bundleID"] as? String == "com.example.notes")
        #expect(records?.first?["device"] as? String == "iPhone 15 Pro")
        #expect((records?.first?["pid"] as? NSNumber)?.int32Value == notesAgent.processIdentifier)

        let byBundle = try sandbox.jarvis("--agent", "com.example.notes", "ls")
        #expect(byBundle.status == 0, "\(byBundle.stderr)")
        #expect(byBundle.stdout.contains("com.example.demo.prefs"))
        let shutDownApp = try sandbox.jarvis("--agent", "com.example.tasks", "ls")
        #expect(shutDownApp.status != 0)
        #expect(shutDownApp.stderr.contains("no running agent"))
        // With one agent in sight, no flag is needed.
        #expect(try sandbox.jarvis("ls").status == 0)

        notesAgent.terminate()
        notesAgent.waitUntilExit()
        #expect(!(try sandbox.jarvis("agents").stdout.contains("notes-host")))
        #expect(tasksAgent.isRunning)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a folder to another uid"))
    func aContainerFolderOfAnotherUserIsNotTrusted() throws {
        let notes = try container(on: booted, "Data/Application", "com.example.notes")
        let agent = try startAgent(named: "notes-host", in: notes)
        // Another user's folder in another app's container, naming the live agent's socket.
        let planted = try container(on: booted, "Data/Application", "com.example.planted")
        let folder = planted.appendingPathComponent("tmp/jarvis-\(getuid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let record = try Data(
            contentsOf: notes.appendingPathComponent("tmp/jarvis-\(getuid())/\(agent.processIdentifier).json"))
        try record.write(to: folder.appendingPathComponent("1.json"))
        chmod(folder.path, 0o700)
        chown(folder.path, 65534, 65534)

        let listing = try sandbox.jarvis("agents", "--json")
        let records = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]]
        #expect(records?.compactMap { $0["bundleID"] as? String } == ["com.example.notes"])
    }
}
