import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote

/// A real scanner (a plist or JSON folder), counting the reads of whole containers: a scanner
/// a host writes around another, forwarding everything.
final class WholeReadCounter: PreferenceScanner, Sendable {
    let base: any PreferenceScanner
    private let reads = Locked([String: Int]())

    init(_ base: any PreferenceScanner) { self.base = base }

    var id: String { base.id }
    var info: ScannerInfo { base.info }
    var valueTypes: [PreferenceType]? { base.valueTypes }
    func containers() throws -> [ContainerInfo] { try base.containers() }
    func container(named name: String) throws -> ContainerInfo? { try base.container(named: name) }
    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        if request.keys == nil { reads.withLock { $0[request.container, default: 0] += 1 } }
        return try base.read(request)
    }
    func read(key: String, in container: String) throws -> ScannedEntry? { try base.read(key: key, in: container) }
    func store(_ request: WriteRequest) throws -> WriteResult { try base.store(request) }
    func write(_ request: WriteRequest) throws { try base.write(request) }
    func watchTargets() -> [WatchTarget] { base.watchTargets() }
    func containers(changedAt path: String) -> [String]? { base.containers(changedAt: path) }
    func version(of container: String) -> ContainerVersion? { base.version(of: container) }
    func storedNames(container: String, key: String?, checkpoint: ChangeCheckpoint) -> StoredNames {
        base.storedNames(container: container, key: key, checkpoint: checkpoint)
    }

    func wholeReads(of container: String) -> Int { reads.withLock { $0[container] ?? 0 } }
}

/// The change engine announces the agent's own write from the key written, not by reading
/// the whole suite again, and still hears every change made outside.
@Suite struct ChangeEngineOwnWriteTests {
    let folder: TemporaryFolder
    let scanner: WholeReadCounter
    let hub = JarvisHub()
    let engine: ChangeEngine
    let lines = Locked<[String]>([])

    init() throws {
        folder = try TemporaryFolder()
        var keys: [String: Any] = [:]
        for index in 0..<2_000 { keys[String(format: "k%04d", index)] = "value \(index)" }
        try Self.store(keys, as: "big", in: folder.path)
        try Self.store(["only": "first"], as: "other", in: folder.path)
        scanner = WholeReadCounter(DefaultsScanner.defaults(folder: URL(fileURLWithPath: folder.path)))
        hub.register(scanner)
        engine = ChangeEngine(hub: hub)
        let lines = lines
        let subscribed = engine.subscribe(ChangeEngine.Filter(scanner: scanner.id), since: nil) { line in
            lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
        }
        engine.release(subscribed.id)
    }

    /// Replaces a suite's file as another program does (a new file renamed over the old).
    private func store(_ keys: [String: Any], as suite: String) throws {
        try Self.store(keys, as: suite, in: folder.path)
    }

    private static func store(_ keys: [String: Any], as suite: String, in folder: String) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: keys, format: .binary, options: 0)
        try data.write(to: URL(fileURLWithPath: "\(folder)/\(suite).plist"), options: .atomic)
    }

    private func heard(_ text: String) -> Bool {
        eventually(timeout: .seconds(60)) { lines.withLock { $0.contains { $0.contains(text) } } }
    }

    @Test func aWriteIsAnnouncedFromItsKeyWithoutReadingTheSuiteAgain() throws {
        #expect(scanner.wholeReads(of: "big") == 1, "the baseline")
        _ = try hub.write(PreferenceAddress(scanner: scanner.id, container: "big", key: "k0007"), .set(.string("written")))
        #expect(heard("written"))
        // The folder's events come in order: once a later change to another suite is heard,
        // the event of the write's own replace of big.plist was handled too.
        try store(["only": "second"], as: "other")
        #expect(heard("second"))
        #expect(scanner.wholeReads(of: "big") == 1, "the write and its file event read the suite again")
        #expect(scanner.wholeReads(of: "other") == 2)
    }

    @Test func anOutsideChangeJustBeforeTheWriteIsStillHeard() throws {
        var keys: [String: Any] = [:]
        for index in 0..<2_000 { keys[String(format: "k%04d", index)] = "value \(index)" }
        keys["k0002"] = "changed outside"
        try store(keys, as: "big")
        // At once, before the engine may have read the outside change: the write's step then
        // starts from a version the engine never read.
        _ = try hub.write(PreferenceAddress(scanner: scanner.id, container: "big", key: "k0003"), .set(.string("written")))
        #expect(heard("changed outside"))
        #expect(heard("written"))
        // And both are in the suite's snapshot: a later write announces only itself.
        _ = try hub.write(PreferenceAddress(scanner: scanner.id, container: "big", key: "k0004"), .set(.string("third")))
        #expect(heard("third"))
        let last = lines.withLock { $0.last { $0.contains("third") } } ?? ""
        #expect(!last.contains("changed outside") && !last.contains("k0003"))
    }

    @Test func aWriteAnnouncesWhatARemovedKeyHeld() throws {
        _ = try hub.write(PreferenceAddress(scanner: scanner.id, container: "big", key: "k0011"), .delete)
        #expect(eventually(timeout: .seconds(60)) {
            lines.withLock { $0.contains { $0.contains("\"removed\"") && $0.contains("k0011") && $0.contains("value 11") } }
        })
    }

    @Test func aJSONFileWriteIsAnnouncedFromItsKeyToo() throws {
        let files = try TemporaryFolder()
        var text = "{\n"
        for index in 0..<2_000 { text += "  \"k\(index)\": \(index),\n" }
        text += "  \"last\": true\n}\n"
        try text.write(toFile: "\(files.path)/big.json", atomically: true, encoding: .utf8)
        try "{\"only\": 1}".write(toFile: "\(files.path)/other.json", atomically: true, encoding: .utf8)
        let json = WholeReadCounter(JSONFilesScanner.jsonFiles(in: [URL(fileURLWithPath: files.path)]))
        let hub = JarvisHub()
        hub.register(json)
        let engine = ChangeEngine(hub: hub)
        let lines = Locked<[String]>([])
        let subscribed = engine.subscribe(ChangeEngine.Filter(scanner: json.id), since: nil) { line in
            lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
        }
        engine.release(subscribed.id)
        func heard(_ text: String) -> Bool {
            eventually(timeout: .seconds(60)) { lines.withLock { $0.contains { $0.contains(text) } } }
        }
        #expect(json.wholeReads(of: "big.json") == 1, "the baseline")
        _ = try hub.write(PreferenceAddress(scanner: json.id, container: "big.json", key: "k7"), .set(.string("written")))
        #expect(heard("written"))
        try "{\"only\": \"second\"}".write(toFile: "\(files.path)/other.json", atomically: true, encoding: .utf8)
        #expect(heard("second"))
        #expect(json.wholeReads(of: "big.json") == 1, "the write and its file event read the file again")
    }
}
