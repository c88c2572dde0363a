import Foundation
import JarvisScanners
import Testing

@testable import JarvisCore

/// A real scanner over memory that counts how often the hub asks it for its containers and
/// for entries, and can be told to fail its next write. It returns what it stored, as the
/// built-in scanners do.
final class CountingScanner: PreferenceScanner {
    let id: String
    let info: ScannerInfo
    private let store: Locked<[String: [String: PreferenceValue]]>
    private let counts = Locked<(containers: Int, reads: Int, writes: Int)>((0, 0, 0))
    private let failing = Locked(false)
    private let failingKey = Locked<String?>(nil)

    init(id: String, contents: [String: [String: PreferenceValue]]) {
        self.id = id
        info = ScannerInfo(displayName: id, isWritable: true)
        store = Locked(contents)
    }

    /// Calls so far: `containers()` (the default `container(named:)` included), `read`, `write`.
    var calls: (containers: Int, reads: Int, writes: Int) { counts.current }

    /// The next writes throw until set back.
    func failWrites(_ on: Bool) { failing.withLock { $0 = on } }

    /// Writes of this key throw until set back to nil; other keys' go through.
    func failWrites(toKey key: String?) { failingKey.withLock { $0 = key } }

    func containers() throws -> [ContainerInfo] {
        counts.withLock { $0.containers += 1 }
        return store.current.keys.sorted().map { ContainerInfo($0) }
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        counts.withLock { $0.reads += 1 }
        let values = store.current[request.container] ?? [:]
        return values.filter { request.keys?.contains($0.key) ?? true }.map {
            ScannedEntry(key: $0.key, value: $0.value)
        }
    }

    func write(_ request: WriteRequest) throws {
        _ = try store(request)
    }

    func store(_ request: WriteRequest) throws -> WriteResult {
        counts.withLock { $0.writes += 1 }
        if failing.current || failingKey.current == request.key { throw JarvisError(.storage, "the disk is full") }
        return store.withLock { store in
            switch request.change {
            case .set(let value):
                store[request.container, default: [:]][request.key] = value
                return WriteResult(entry: ScannedEntry(key: request.key, value: value))
            case .delete:
                store[request.container]?[request.key] = nil
                return WriteResult(entry: nil)
            }
        }
    }
}

/// A host's scanner written before ``PreferenceScanner/store(_:)``: it implements `write`
/// alone, and the default `store` reads the key back for it.
final class WriteOnlyScanner: PreferenceScanner {
    let id = "legacy"
    let info = ScannerInfo(displayName: "legacy", isWritable: true)
    private let values = Locked<[String: PreferenceValue]>(["a": 1])
    private let readCount = Locked(0)
    var reads: Int { readCount.current }

    func containers() throws -> [ContainerInfo] { [ContainerInfo("box")] }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        readCount.withLock { $0 += 1 }
        return values.current.filter { request.keys?.contains($0.key) ?? true }
            .map { ScannedEntry(key: $0.key, value: $0.value) }
    }

    func write(_ request: WriteRequest) throws {
        values.withLock { values in
            switch request.change {
            // Stores the number one more than asked, as a storage that normalises might.
            case .set(.integer(let number)): values[request.key] = .integer(number + 1)
            case .set(let value): values[request.key] = value
            case .delete: values[request.key] = nil
            }
        }
    }
}

/// The one write transaction: each writing method notifies once after a successful write and
/// never after a refused or failed one, returns the revisions it replaced and left, and reads
/// no more than it must.
@Suite struct JarvisHubTransactionTests {
    let hub: JarvisHub
    let scanner: CountingScanner
    let notified = Locked<[PreferenceAddress]>([])

    init() {
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: "private_*", in: "count")
        configuration.hide(keys: "secret_*")
        hub = JarvisHub(configuration: configuration)
        scanner = CountingScanner(
            id: "count",
            contents: [
                "app": [
                    "name": "Ada", "profile": .dictionary(["tags": .array(["a"])]), "workout_1": 1, "workout_2": 2,
                ],
                "private_data": ["token": "abc"],
            ])
        hub.register(scanner)
        let notified = notified
        _ = hub.writeObservers.add { notice in notified.withLock { $0.append(notice.address) } }
    }

    func at(_ key: String, in container: String = "app") -> PreferenceAddress {
        PreferenceAddress(scanner: "count", container: container, key: key)
    }

    @Test func failedAndRefusedWritesNeverNotify() throws {
        let name = at("name")
        let stale = Revision("0000000000000000")
        #expect(throws: JarvisError.self) { try hub.set(name, to: "Bob", expectedRevision: stale) }
        #expect(throws: JarvisError.self) { try hub.delete(at("missing")) }
        #expect(throws: JarvisError.self) { try hub.set(at("x", in: "private_data"), to: 1) }
        scanner.failWrites(true)
        let failed = #expect(throws: JarvisError.self) { try hub.set(name, to: "Bob") }
        #expect(failed?.message == "the disk is full")
        #expect(throws: JarvisError.self) { try hub.set(name, pointer: JSONPointer(tokens: ["x"]), to: 1) }
        #expect(throws: JarvisError.self) { try hub.reset(name) }
        #expect(throws: JarvisError.self) {
            try hub.delete(matching: "workout_*", scanner: "count", container: "app")
        }
        #expect(notified.current.isEmpty)
    }

    @Test func everyWritingMethodNotifiesEachKeyItStoredAtOnce() throws {
        try hub.set(at("name"), to: "Bob")
        #expect(notified.current == [at("name")])
        try hub.set(at("profile"), pointer: JSONPointer(parsing: "/tags/-"), to: "b")
        #expect(notified.current.count == 2)
        try hub.delete(at("profile"), pointer: JSONPointer(parsing: "/tags/0"))
        #expect(notified.current.count == 3)
        try hub.reset(at("name"))
        #expect(notified.current.count == 4)
        try hub.reset(at("name"))  // nothing stored any more: nothing written, nobody told
        #expect(notified.current.count == 4)
        try hub.delete(matching: "workout_*", scanner: "count", container: "app", dryRun: true)
        #expect(notified.current.count == 4)
        try hub.delete(matching: "workout_*", scanner: "count", container: "app")
        #expect(notified.current.suffix(2) == [at("workout_1"), at("workout_2")], "a bulk delete tells each key")
        try hub.delete(at("profile"))
        #expect(notified.current.count == 7)
    }

    @Test func theTransactionReturnsTheRevisionsItReplacedAndLeft() throws {
        let before = try hub.get(at("name"))
        let set = try hub.write(at("name"), .set("Bob"))
        #expect(set.changes.count == 1)
        #expect(set.changes.first?.before?.revision == before.revision)
        #expect(set.changes.first?.after?.revision == Revision(of: "Bob"))
        let inside = try hub.write(at("profile"), .setInside(try JSONPointer(parsing: "/tags/0"), "z"))
        #expect(inside.item?.value == "z" && inside.item?.pointer?.description == "/tags/0")
        #expect(inside.changes.first?.after?.value == .dictionary(["tags": .array(["z"])]))
        let removed = try hub.write(at("name"), .delete)
        #expect(removed.changes.first?.before?.revision == Revision(of: "Bob"))
        #expect(removed.changes.first?.after == nil)
        let bulk = try hub.write(at("", in: "app"), .deleteKeys(.matching("workout_*"), dryRun: false))
        #expect(bulk.changes.map(\.address.key) == ["workout_1", "workout_2"])
        #expect(bulk.changes.map(\.before?.revision) == [Revision(of: 1), Revision(of: 2)])
    }

    @Test func aWriteReadsTheKeyOnceAndAsksForItsContainerOnce() throws {
        let set = try hub.set(at("name"), to: "Bob")
        #expect(set.value == "Bob" && set.revision == Revision(of: "Bob"))
        #expect(scanner.calls.containers == 1, "one lookup of the named container")
        #expect(scanner.calls.reads == 1, "the current value; what was stored comes from the write")
        #expect(scanner.calls.writes == 1)
        try hub.delete(at("name"))
        #expect(scanner.calls.containers == 2)
        #expect(scanner.calls.reads == 2, "a delete reads only what it removes")
        let inside = try hub.write(at("profile"), .setInside(try JSONPointer(parsing: "/tags/-"), "b"))
        #expect(inside.item?.value == "b" && inside.item?.pointer?.description == "/tags/1")
        #expect(scanner.calls.reads == 3, "a pointer edit reads the key once too")
        try hub.reset(at("workout_1"))
        #expect(scanner.calls.reads == 4 && scanner.calls.writes == 4)
        // Hidden: only stand-ins are asked about, as a missing container (one lookup) and a
        // missing key (one lookup, one read) would be; nothing is written.
        #expect(throws: JarvisError.self) { try hub.set(at("token", in: "private_data"), to: 1) }
        #expect(throws: JarvisError.self) { try hub.set(at("secret_1"), to: 1) }
        #expect(scanner.calls.containers == 6 && scanner.calls.reads == 5 && scanner.calls.writes == 4)
    }

    @Test func aScannerWithoutStoreIsReadBackAndAnswersWhatItHolds() throws {
        let legacy = WriteOnlyScanner()
        hub.register(legacy)
        let address = PreferenceAddress(scanner: "legacy", container: "box", key: "a")
        let item = try hub.set(address, to: 5)
        #expect(item.value == 6 && item.revision == Revision(of: 6), "the answer is what the storage holds")
        #expect(legacy.reads == 2, "the current value, then the default store's read back")
    }

    @Test func findingTheOwnerAsksEachScannerForOneContainerOnly() throws {
        let other = CountingScanner(id: "other", contents: ["settings": ["a": 1]])
        hub.register(other)
        #expect(try hub.owner(ofContainer: "app").scanner == "count")
        #expect(scanner.calls.containers == 1 && other.calls.containers == 1)
        #expect(scanner.calls.reads == 0 && other.calls.reads == 0)
        let missing = #expect(throws: JarvisError.self) { try hub.owner(ofContainer: "nowhere") }
        let hidden = #expect(throws: JarvisError.self) { try hub.owner(ofContainer: "private_data") }
        #expect(missing?.code == .notFound)
        #expect(
            missing?.message.replacingOccurrences(of: "nowhere", with: "X")
                == hidden?.message.replacingOccurrences(of: "private_data", with: "X"))
    }

    @Test func hiddenNamesAnswerEveryMethodAsANameThatCannotBeCreated() throws {
        // `count` lists its containers and creates none: `nothing_here` cannot be created.
        // The catalog declaring the key everywhere must not make either show an unset item.
        var configuration = hub.configuration
        configuration.catalog = [KeyDefinition("token", in: "*", scanner: "count", type: .string)]
        try hub.update(configuration: configuration)
        // A hidden key of a visible container answers as that: `set` cannot create it.
        let pairs = [
            (at("token", in: "private_data"), at("token", in: "nothing_here")),
            (at("secret_1"), at("secret_2", in: "nothing_here")),
        ]
        for (hidden, missing) in pairs {
            func same<T>(_ body: (PreferenceAddress) throws(JarvisError) -> T) {
                let one = Result { () throws(JarvisError) in try body(hidden) }
                let two = Result { () throws(JarvisError) in try body(missing) }
                switch (one, two) {
                case (.failure(let a), .failure(let b)):
                    #expect(a.code == b.code)
                    #expect(
                        a.message.replacingOccurrences(of: hidden.container, with: "C").replacingOccurrences(
                            of: hidden.key, with: "K")
                            == b.message.replacingOccurrences(of: missing.container, with: "C").replacingOccurrences(
                                of: missing.key, with: "K"))
                case (.success, .success): break
                default: Issue.record("\(hidden) answered \(one), \(missing) answered \(two)")
                }
            }
            same { (a: PreferenceAddress) throws(JarvisError) in try hub.get(a) }
            same { (a: PreferenceAddress) throws(JarvisError) in try hub.set(a, to: 1) }
            same { (a: PreferenceAddress) throws(JarvisError) in try hub.delete(a) }
            same { (a: PreferenceAddress) throws(JarvisError) in try hub.reset(a).removed == nil }
            same { (a: PreferenceAddress) throws(JarvisError) in
                try hub.set(a, pointer: JSONPointer(tokens: ["a"]), to: 1)
            }
            same { (a: PreferenceAddress) throws(JarvisError) in try hub.delete(a, pointer: JSONPointer(tokens: ["a"]))
            }
        }
        let setHidden = #expect(throws: JarvisError.self) { try hub.set(at("token", in: "private_data"), to: 1) }
        #expect(setHidden?.code == .notFound)
        #expect(try hub.delete(matching: "*", scanner: "count", container: "private_data").isEmpty)
        #expect(try hub.delete(matching: "*", scanner: "count", container: "nothing_here").isEmpty)
        #expect(scanner.calls.writes == 0)
    }

    @Test func placeholdersAreNeverWritten() throws {
        let placeholders = PlaceholderScanner()
        hub.register(placeholders)
        let address = PreferenceAddress(scanner: "nulls", container: "file", key: "proxy")
        let item = try hub.get(address)
        #expect(item.isPlaceholder && !item.isWritable)
        let refused = #expect(throws: JarvisError.self) { try hub.set(address, to: "null") }
        #expect(refused?.code == .readOnly)
        #expect(refused?.message.contains("stand-in") == true)
        #expect(throws: JarvisError.self) { try hub.reset(address) }
        #expect(throws: JarvisError.self) { try hub.delete(matching: "*", scanner: "nulls", container: "file") }
        #expect(placeholders.writes.current == 0)
        #expect(notified.current.isEmpty)
    }

    @Test func undeclaredKeysAreListedAndRemovedOnlyWhereACatalogDeclaresKeys() throws {
        #expect(throws: JarvisError.self) { try hub.list(ListQuery(undeclared: true)) }
        var configuration = hub.configuration
        configuration.catalog = [KeyDefinition("name", in: "app", scanner: "count", type: .string)]
        try hub.update(configuration: configuration)
        let listed = try hub.list(ListQuery(undeclared: true)).items.map(\.address.key)
        #expect(listed == ["profile", "workout_1", "workout_2"])
        let dry = try hub.deleteUndeclared(scanner: "count", container: "app", dryRun: true)
        #expect(dry.map(\.address.key) == listed)
        #expect(notified.current.isEmpty)
        try hub.deleteUndeclared(scanner: "count", container: "app")
        #expect(try hub.list(ListQuery(container: "app")).items.map(\.address.key) == ["name"])
        #expect(notified.current.count == 3, "one notice per key removed")
        let elsewhere = #expect(throws: JarvisError.self) {
            try hub.deleteUndeclared(scanner: "count", container: "other")
        }
        #expect(elsewhere?.code == .invalidParams)
    }
}

/// A scanner holding one value it can show only as a stand-in, as a JSON file's `null`.
final class PlaceholderScanner: PreferenceScanner {
    let id = "nulls"
    let info = ScannerInfo(displayName: "nulls", isWritable: true)
    let writes = Locked(0)

    func containers() throws -> [ContainerInfo] { [ContainerInfo("file")] }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        [ScannedEntry(key: "proxy", value: "null", isExact: false)]
    }

    func write(_ request: WriteRequest) throws {
        writes.withLock { $0 += 1 }
    }
}
