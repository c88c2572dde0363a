import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// A real scanner over a folder of flat JSON files (`<container>.json`), watched as a folder.
struct JSONFolderScanner: PreferenceScanner {
    let id = "json"
    let folder: String

    func containers() throws -> [ContainerInfo] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            .map { ContainerInfo(String($0.dropLast(5))) }
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(request.container).json")))
        guard case .object(let object) = try JSONParser.parse(bytes, maxDepth: 16) else { return [] }
        return try object.keys.map { ScannedEntry(key: $0, value: try PreferenceValue(json: object[$0] ?? .null)) }
    }

    func watchTargets() -> [WatchTarget] { [.folder(folder)] }

    func containers(changedAt path: String) -> [String]? {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.hasSuffix(".json") ? [String(name.dropLast(5))] : []
    }

    /// Replaces a container's file by an atomic rename, as editors and apps do.
    static func write(_ values: JSONObject, to path: String) throws {
        try Data(JSONWriter.bytes(.object(values))).write(to: URL(fileURLWithPath: path + ".tmp"))
        guard rename(path + ".tmp", path) == 0 else { throw SocketError(operation: "rename", errno: errno) }
    }
}

/// Watching through a real in-process agent and real socket clients.
@Suite struct WatchTests {
    let folder: TemporaryFolder
    let memory: MemoryScanner
    let agent: JarvisAgent

    init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/json", withIntermediateDirectories: true)
        try JSONFolderScanner.write(["mode": "light"], to: folder.path + "/json/app.json")
        memory = MemoryScanner(
            id: "memory",
            contents: ["flags": ["beta": .boolean(false)], "private": ["pin": .string("1234")]])
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: GlobPattern("private"), in: "memory")
        configuration.hide(keys: GlobPattern("secret_*"), in: "memory")
        agent = try JarvisAgent.start(
            configuration: configuration,
            scanners: [memory, JSONFolderScanner(folder: folder.path + "/json")],
            options: .init(
                runtimeDirectory: URL(fileURLWithPath: folder.path + "/run"),
                journalFolder: URL(fileURLWithPath: folder.path + "/journal")))
    }

    private func client() throws -> JarvisClient {
        try JarvisClient(endpoint: .unix(path: agent.socketPath))
    }

    private func change(_ client: JarvisClient) throws -> ChangeNotification? {
        try client.nextChange(timeout: .seconds(10))
    }

    @Test func anotherClientsSetAndDeleteAreSeen() throws {
        defer { agent.stop() }
        let watcher = try client()
        let subscription = try watcher.watch(scanner: "memory")
        #expect(subscription.resumed == nil)
        let writer = try client()
        try writer.set(PreferenceAddress(scanner: "memory", container: "flags", key: "beta"), to: .boolean(true))
        let updated = try #require(try change(watcher))
        #expect(updated.subscription == subscription.id)
        #expect(updated.sequence == subscription.sequence + 1)
        #expect(updated.changes.map(\.kind) == ["updated"])
        #expect(updated.changes.first?.old?.value == .boolean(false))
        #expect(updated.changes.first?.item?.value == .boolean(true))
        try writer.delete(PreferenceAddress(scanner: "memory", container: "flags", key: "beta"))
        let removed = try #require(try change(watcher))
        #expect(removed.changes.map(\.kind) == ["removed"])
        #expect(removed.changes.first?.item == nil && removed.changes.first?.old?.value == .boolean(true))
        #expect(removed.sequence == updated.sequence + 1)
    }

    @Test func hostUpdatesInMemoryAreSeenQuickly() throws {
        defer { agent.stop() }
        let watcher = try client()
        _ = try watcher.watch(scanner: "memory", key: "beta*")
        let start = ContinuousClock.now
        memory.update("flags", "beta_two", to: .integer(2))
        memory.update("flags", "beta", to: .boolean(true))
        var kinds: [String] = []
        while kinds.count < 2, let seen = try change(watcher) {
            kinds += seen.changes.map { "\($0.kind) \($0.address.key)" }
        }
        let elapsed = ContinuousClock.now - start
        #expect(Set(kinds) == ["updated beta", "added beta_two"])
        // Generous: the target is under 100 ms; this only catches a polling fallback.
        #expect(elapsed < .seconds(2))
    }

    @Test func aFileReplacedByAnotherProcessIsSeen() throws {
        defer { agent.stop() }
        let watcher = try client()
        _ = try watcher.watch(scanner: "json", container: "app")
        let path = folder.path + "/json/app.json"
        let script = "printf '{\"mode\":\"dark\",\"size\":3}' > \"$1.tmp\" && mv \"$1.tmp\" \"$1\""
        let child = try Process.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script, "sh", path])
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        let seen = try #require(try change(watcher))
        let kinds = seen.changes.map { "\($0.kind) \($0.address.key)" }
        #expect(kinds == ["updated mode", "added size"])
        #expect(seen.changes.first?.item?.value == .string("dark"))
    }

    @Test func aBurstOfWritesCoalescesWithTheFinalValueLast() throws {
        defer { agent.stop() }
        let watcher = try client()
        _ = try watcher.watch(scanner: "json")
        let path = folder.path + "/json/app.json"
        for index in 1...20 {
            try JSONFolderScanner.write(["mode": .number(JSONNumber(index))], to: path)
        }
        var events: [ChangeNotification] = []
        while let next = try watcher.nextChange(timeout: .milliseconds(1500)) {
            events.append(next)
        }
        #expect(!events.isEmpty)
        #expect(events.count < 20)
        #expect(events.last?.changes.last?.item?.value == .integer(20))
    }

    @Test func hiddenItemsNeverAppear() throws {
        defer { agent.stop() }
        let watcher = try client()
        _ = try watcher.watch()
        memory.update("private", "pin", to: .string("9999"))
        memory.update("flags", "secret_code", to: .string("x"))
        memory.update("flags", "visible", to: .string("y"))
        let seen = try #require(try change(watcher))
        #expect(seen.changes.map(\.address.key) == ["visible"])
        #expect(try watcher.nextChange(timeout: .milliseconds(300)) == nil)
    }

    @Test func unwatchAndDisconnectEndTheStream() throws {
        defer { agent.stop() }
        let watcher = try client()
        let subscription = try watcher.watch(scanner: "memory")
        #expect(!agent.hub.writeObservers.isEmpty)
        try watcher.unwatch(subscription.id)
        memory.update("flags", "beta", to: .boolean(true))
        #expect(try watcher.nextChange(timeout: .milliseconds(300)) == nil)
        #expect(throws: JarvisError.self) { try watcher.unwatch(subscription.id) }
        #expect(eventually { agent.hub.writeObservers.isEmpty }, "the last unwatch stops watching")

        let other = try client()
        _ = try other.watch()
        #expect(!agent.hub.writeObservers.isEmpty)
        other.close()
        #expect(eventually { agent.hub.writeObservers.isEmpty }, "a disconnect ends its subscriptions")
    }

    @Test func resumeReplaysMissedChangesInOrder() throws {
        defer { agent.stop() }
        let first = try client()
        _ = try first.watch(scanner: "memory")
        memory.update("flags", "beta", to: .boolean(true))
        let seen = try #require(try change(first))
        first.close()
        // The agent ends the subscription when it processes the close, a little later: until
        // then the changes below would be debounced into live events, maybe split in two.
        #expect(eventually(timeout: .seconds(30)) { !agent.isWatching })
        // Nobody watches now: the changes are found when watching starts again.
        memory.update("flags", "beta", to: .boolean(false))
        memory.update("flags", "gamma", to: .integer(1))
        let again = try client()
        let resumed = try again.watch(scanner: "memory", since: seen.sequence)
        #expect(resumed.resumed == true)
        #expect(resumed.sequence > seen.sequence)
        let replayed = try #require(try change(again))
        #expect(replayed.sequence == seen.sequence + 1)
        #expect(Set(replayed.changes.map(\.address.key)) == ["beta", "gamma"])

        let lost = try again.watch(scanner: "memory", since: resumed.sequence + 100)
        #expect(lost.resumed == false)
    }

    @Test func watchRefusesUnknownScannersAndParams() throws {
        defer { agent.stop() }
        let watcher = try client()
        #expect(throws: JarvisError.self) { try watcher.watch(scanner: "nope") }
        #expect(throws: JarvisError.self) { try watcher.call("watch", ["bogus": true]) }
        #expect(throws: JarvisError.self) { try watcher.call("unwatch", [:]) }
    }
}
