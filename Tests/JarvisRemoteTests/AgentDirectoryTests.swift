import Foundation
import JarvisCore
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The runtime folder and its records trust nothing planted: made as another local user would.
@Suite struct AgentDirectoryTests {
    /// The uid and gid another local user would have (`nobody`).
    static let stranger: (uid: uid_t, gid: gid_t) = (65534, 65534)
    static let isRoot = getuid() == 0

    func environment(_ runtime: String, home: String) -> [String: String] {
        ["JARVIS_RUNTIME_DIR": runtime, "HOME": home]
    }

    func write(_ text: String, to path: String, mode: mode_t = 0o600) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
    }

    @Test func theAgentMakesItsRuntimeFolderPrivate() throws {
        let folder = try TemporaryFolder()
        let runtime = folder.path + "/deep/run"
        let agent = try JarvisAgent.start(
            scanners: [], options: .init(name: "private", runtimeDirectory: URL(fileURLWithPath: runtime), journalFolder: URL(fileURLWithPath: runtime + "/journal")))
        defer { agent.stop() }
        #expect(PrivatePath.folderProblem(runtime) == nil)
        let records = try AgentDirectory.running(environment: environment(runtime, home: folder.path))
        #expect(records.map(\.name) == ["private"])
    }

    @Test func aLooseOrLinkedRuntimeFolderIsRefusedByAgentAndReader() throws {
        let folder = try TemporaryFolder()
        let loose = folder.path + "/loose"
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: false)
        chmod(loose, 0o755)
        let refused = #expect(throws: JarvisError.self) {
            try JarvisAgent.start(scanners: [], options: .init(runtimeDirectory: URL(fileURLWithPath: loose), journalFolder: URL(fileURLWithPath: loose + "/journal")))
        }
        #expect(refused?.message.contains("\(loose) has mode 0755") == true)
        #expect(refused?.message.contains("chmod 700 \(loose)") == true)
        let read = #expect(throws: JarvisError.self) {
            try AgentDirectory.running(environment: environment(loose, home: folder.path))
        }
        #expect(read?.message.contains("chmod 700") == true)

        let target = folder.path + "/target"
        PrivatePath.makeFolder(target)
        let link = folder.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let linked = #expect(throws: JarvisError.self) {
            try JarvisAgent.start(scanners: [], options: .init(runtimeDirectory: URL(fileURLWithPath: link), journalFolder: URL(fileURLWithPath: link + "/journal")))
        }
        #expect(linked?.message.contains("\(link) is a symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
        #expect(throws: JarvisError.self) {
            try AgentDirectory.running(environment: environment(link, home: folder.path))
        }
    }

    @Test(.enabled(if: isRoot, "needs root to give a folder to another uid"))
    func aFolderOfAnotherUserIsRefused() throws {
        let folder = try TemporaryFolder()
        let foreign = folder.path + "/foreign"
        PrivatePath.makeFolder(foreign)
        chown(foreign, Self.stranger.uid, Self.stranger.gid)
        let refused = #expect(throws: JarvisError.self) {
            try JarvisAgent.start(scanners: [], options: .init(runtimeDirectory: URL(fileURLWithPath: foreign), journalFolder: URL(fileURLWithPath: foreign + "/journal")))
        }
        #expect(refused?.message.contains("belongs to uid 65534, not to you") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign).isEmpty)
    }

    @Test func aStaleRecordRemovesOnlyItselfAndItsOwnSocket() throws {
        let folder = try TemporaryFolder()
        let runtime = folder.path + "/run"
        PrivatePath.makeFolder(runtime)
        // A folder and a file of the user's that a planted record names as its socket.
        let victim = folder.path + "/precious"
        try FileManager.default.createDirectory(atPath: victim + "/inside", withIntermediateDirectories: true)
        try write("keep", to: folder.path + "/file.txt")
        try write(#"{"pid":999999,"name":"x","socket":"\#(victim)"}"#, to: runtime + "/1.json")
        try write(#"{"pid":999998,"name":"y","socket":"\#(folder.path)/file.txt"}"#, to: runtime + "/2.json")
        try write(#"{"pid":999997,"name":"z","socket":"\#(runtime)/../file.txt"}"#, to: runtime + "/3.json")
        // A dead agent's own socket in the runtime folder does go with its record.
        let listener = try Socket.listen(on: .unix(path: runtime + "/4.sock"))
        listener.close()
        try write(#"{"pid":999996,"name":"w","socket":"\#(runtime)/4.sock"}"#, to: runtime + "/4.json")

        #expect(try AgentDirectory.running(environment: environment(runtime, home: folder.path)).isEmpty)
        #expect(FileManager.default.fileExists(atPath: victim + "/inside"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/file.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime).isEmpty)
    }

    @Test func recordsAreReadOnlyFromPrivateRegularFiles() throws {
        let folder = try TemporaryFolder()
        let runtime = folder.path + "/run"
        PrivatePath.makeFolder(runtime)
        let socket = runtime + "/live.sock"
        let listener = try Socket.listen(on: .unix(path: socket))
        defer { listener.close() }
        let live = #"{"pid":\#(getpid()),"name":"NAME","socket":"\#(socket)"}"#
        try write(live.replacingOccurrences(of: "NAME", with: "good"), to: runtime + "/good.json")
        // Others may write it: not trusted.
        try write(live.replacingOccurrences(of: "NAME", with: "writable"), to: runtime + "/w.json", mode: 0o666)
        // A link to a record elsewhere: never followed.
        try write(live.replacingOccurrences(of: "NAME", with: "linked"), to: folder.path + "/elsewhere.json")
        try FileManager.default.createSymbolicLink(
            atPath: runtime + "/link.json", withDestinationPath: folder.path + "/elsewhere.json")
        try FileManager.default.createDirectory(atPath: runtime + "/dir.json", withIntermediateDirectories: false)
        if Self.isRoot {
            try write(live.replacingOccurrences(of: "NAME", with: "foreign"), to: runtime + "/f.json")
            chown(runtime + "/f.json", Self.stranger.uid, Self.stranger.gid)
        }
        let names = try AgentDirectory.running(environment: environment(runtime, home: folder.path)).map(\.name)
        #expect(names == ["good"])
        // Skipped, not removed: they are not records at all.
        #expect(FileManager.default.fileExists(atPath: runtime + "/link.json"))
    }

    @Test func aRecordNamesASocketOrATCPEndpoint() throws {
        let tcpOnly = try #require(
            AgentRecord(json: try JSONParser.parse(#"{"pid":1,"name":"a","tcp":"tcp://127.0.0.1:9","token":"t"}"#)))
        #expect(tcpOnly.socket == nil)
        #expect(tcpOnly.endpoint == .tcp(host: "127.0.0.1", port: 9))
        #expect(tcpOnly.json["socket"] == nil)
        let unix = try #require(
            AgentRecord(json: try JSONParser.parse(#"{"pid":1,"name":"a","socket":"/s","tcp":"tcp://127.0.0.1:9"}"#)))
        #expect(unix.endpoint == .unix(path: "/s"))
        #expect(AgentRecord(json: try JSONParser.parse(#"{"pid":1,"name":"a"}"#)) == nil)
    }

    @Test func aRecordedTokenGoesOnlyToItsExactHostAndPort() throws {
        let fixture = try AgentFixture()
        let environment = environment(fixture.folder.path + "/run", home: fixture.folder.path)
        guard case .tcp(_, let port) = try fixture.tcp() else { throw SocketError(operation: "not TCP") }
        #expect(AgentLocator.localToken(for: .tcp(host: "127.0.0.1", port: port), environment: environment) != nil)
        for alias in ["::1", "localhost", "0.0.0.0", "::"] {
            #expect(AgentLocator.localToken(for: .tcp(host: alias, port: port), environment: environment) == nil)
        }
        #expect(
            AgentLocator.localToken(for: .tcp(host: "127.0.0.1", port: port &+ 1), environment: environment) == nil)
    }

    @Test func theDiscoveryFileIsPrivateAndReplacesNoLink() throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: folder.path + "/1.json")
        try AgentDirectory.publish(
            AgentRecord(
                pid: 1, name: "n", socket: "/x", started: "", platform: "", tcp: "tcp://127.0.0.1:1", token: "t"),
            at: url)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
