import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// A watched JSON file that stops being readable (half-written, garbage, no permission) is
/// reported as unreadable with its problem, never as every key removed, and as readable again
/// with only what differs from the last good read.
@Suite struct ChangeEngineUnreadableTests {
    let folder: TemporaryFolder
    let engine: ChangeEngine
    let lines = Locked<[ChangeNotification]>([])

    init() throws {
        folder = try TemporaryFolder()
        try Self.write(#"{"mode": "light", "size": 2, "beta": false}"#, to: folder.path + "/app.json")
        try Self.write(#"{"pin": "1234"}"#, to: folder.path + "/private.json")
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: GlobPattern("private.json"), in: "files")
        let hub = JarvisHub(configuration: configuration)
        hub.register(JSONFilesScanner(folders: [URL(fileURLWithPath: folder.path)]))
        engine = ChangeEngine(hub: hub)
    }

    /// Replaces a file by an atomic rename, as editors do (a write in place is tested end to end).
    private func write(_ text: String, to name: String) throws {
        try Self.write(text, to: folder.path + "/" + name)
    }

    private static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + ".tmp"))
        guard rename(path + ".tmp", path) == 0 else { throw SocketError(operation: "rename", errno: errno) }
    }

    private func watch(_ filter: ChangeEngine.Filter = ChangeEngine.Filter(scanner: "files")) -> String {
        let lines = lines
        let subscribed = engine.subscribe(filter, since: nil) { line in
            guard case .notification(_, let params) = try? RPCResponse.decode(line),
                let notification = try? ChangeNotification(params: params)
            else { return }
            lines.withLock { $0.append(notification) }
        }
        engine.release(subscribed.id)
        return subscribed.id
    }

    /// Waits for the notification after the first `count` and returns it.
    private func next(after count: Int) throws -> ChangeNotification {
        #expect(eventually(timeout: .seconds(10)) { lines.current.count > count }, "\(lines.current)")
        return try #require(lines.current.dropFirst(count).first)
    }

    private func keys(_ notification: ChangeNotification) -> [String] {
        notification.changes.map { "\($0.kind) \($0.address.key)" }
    }

    @Test func anInvalidFileIsUnreadableAndItsRecoveryCarriesOnlyTheRealDifferences() throws {
        let id = watch()
        defer { engine.unsubscribe(id) }
        try write(#"{"mode": "dark" "size": 2}"#, to: "app.json")
        let broken = try next(after: 0)
        #expect(broken.changes.isEmpty, "no key is reported removed: \(keys(broken))")
        let container = try #require(broken.container)
        #expect(container.kind == .unreadable && container.scanner == "files" && container.name == "app.json")
        #expect(container.problem?.hasPrefix("not valid JSON: line 1, column 17:") == true, "\(container)")

        // Broken another way: told again, with the new problem.
        try write(#"{"mode": "dark", "#, to: "app.json")
        let worse = try next(after: 1)
        #expect(worse.container?.kind == .unreadable && worse.container?.problem != container.problem)
        #expect(worse.changes.isEmpty)

        // Fixed: the differences from the last good read, nothing else.
        try write(#"{"mode": "dark", "size": 2, "new": 1}"#, to: "app.json")
        let fixed = try next(after: 2)
        #expect(
            fixed.container == ChangeNotification.ContainerChange(kind: .readable, scanner: "files", name: "app.json"))
        #expect(keys(fixed) == ["removed beta", "updated mode", "added new"])
        #expect(fixed.sequence == worse.sequence + 1 && worse.sequence == broken.sequence + 1)
    }

    @Test func theSameProblemIsToldOnceAndAGoodWriteWithoutProblemIsPlain() throws {
        let id = watch()
        defer { engine.unsubscribe(id) }
        try write(#"[1, 2]"#, to: "app.json")
        let broken = try next(after: 0)
        #expect(broken.container?.problem?.contains("object") == true, "\(String(describing: broken.container))")
        try write(#"[1, 2]"#, to: "app.json")
        try write(#"{"mode": "light", "size": 2, "beta": false}"#, to: "app.json")
        let fixed = try next(after: 1)
        #expect(fixed.container?.kind == .readable)
        #expect(fixed.changes.isEmpty, "the same keys as before: \(keys(fixed))")
        try write(#"{"mode": "light", "size": 3, "beta": false}"#, to: "app.json")
        let plain = try next(after: 2)
        #expect(plain.container == nil && keys(plain) == ["updated size"])
        #expect(lines.current.count == 3, "the repeated problem was told again: \(lines.current)")
    }

    @Test func aKeyFilterStillHearsOfTheContainer() throws {
        let id = watch(ChangeEngine.Filter(scanner: "files", key: GlobPattern("nothing*")))
        defer { engine.unsubscribe(id) }
        try write("{", to: "app.json")
        #expect(try next(after: 0).container?.kind == .unreadable)
        try write(#"{"mode": "light", "size": 5, "beta": false}"#, to: "app.json")
        let fixed = try next(after: 1)
        #expect(fixed.container?.kind == .readable && fixed.changes.isEmpty)
    }

    @Test func aHiddenContainersProblemNeverAppears() throws {
        let id = watch()
        defer { engine.unsubscribe(id) }
        try write("garbage", to: "private.json")
        try write("garbage", to: "app.json")
        let first = try next(after: 0)
        #expect(first.container?.name == "app.json")
        // A later read of app.json comes after any of private.json, written before it.
        try write(#"{"mode": "light", "size": 2, "beta": false}"#, to: "app.json")
        #expect(try next(after: 1).container?.kind == .readable)
        #expect(!lines.current.contains { $0.container?.name == "private.json" }, "\(lines.current)")
    }

    @Test func aFileDeletedWhileUnreadableLosesItsKeys() throws {
        let id = watch()
        defer { engine.unsubscribe(id) }
        try write("{", to: "app.json")
        #expect(try next(after: 0).container?.kind == .unreadable)
        try FileManager.default.removeItem(atPath: folder.path + "/app.json")
        let gone = try next(after: 1)
        #expect(gone.container == nil)
        #expect(Set(keys(gone)) == ["removed beta", "removed mode", "removed size"])
    }

    @Test func aResumeReplaysTheProblemAndTheRecovery() throws {
        let id = watch()
        defer { engine.unsubscribe(id) }
        try write("{", to: "app.json")
        let broken = try next(after: 0)
        try write(#"{"mode": "light", "size": 2, "beta": true}"#, to: "app.json")
        _ = try next(after: 1)
        let replayed = try #require(engine.backlog(after: broken.sequence - 1))
        #expect(replayed.map(\.state) == [.unreadable(problem: broken.container?.problem ?? ""), .readable])
        #expect(replayed.map(\.changes.count) == [0, 1])
    }
}
