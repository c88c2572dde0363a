import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// A real memory scanner that counts what the hub asks of it: `containers()`, single-container
/// lookups and reads.
final class CountedMemoryScanner: PreferenceScanner {
    let memory: MemoryScanner
    let listings = Locked(0)
    let lookups = Locked(0)
    let reads = Locked(0)

    init(id: String, contents: [String: [String: PreferenceValue]]) {
        memory = MemoryScanner(id: id, contents: contents)
    }

    var id: String { memory.id }
    var info: ScannerInfo { memory.info }

    func containers() throws -> [ContainerInfo] {
        listings.withLock { $0 += 1 }
        return try memory.containers()
    }

    func container(named name: String) throws -> ContainerInfo? {
        lookups.withLock { $0 += 1 }
        return try memory.container(named: name)
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        reads.withLock { $0 += 1 }
        return try memory.read(request)
    }

    func write(_ request: WriteRequest) throws {
        try memory.write(request)
    }

    /// Storage that tells nobody of changes, read again only once an hour while watched: a
    /// watcher sees a client's write at once only if the hub reports it.
    func watchTargets() -> [WatchTarget] { [.schedule(every: .seconds(3600))] }
}

/// Writes through the real agent over its socket: what each costs the scanners, and hidden
/// names answering byte for byte like names that are not there.
@Suite struct AgentWriteTests {
    @Test func aSetReadsTheKeyTwiceAndNeverListsAnyScannersContainers() throws {
        let folder = try TemporaryFolder()
        let owner = CountedMemoryScanner(id: "owner", contents: ["app": ["name": "Ada"]])
        let bystander = CountedMemoryScanner(id: "bystander", contents: ["other": ["x": 1]])
        let agent = try JarvisAgent.start(
            scanners: [owner, bystander],
            options: .init(
                name: "counting", runtimeDirectory: URL(fileURLWithPath: folder.path),
                journalFolder: URL(fileURLWithPath: folder.path + "/journal")))
        defer { agent.stop() }
        let client = try LineClient(endpoint: .unix(path: agent.socketPath), timeout: .seconds(10))
        try client.send(
            #"{"jsonrpc":"2.0","id":1,"method":"set","params":{"container":"app","key":"name","value":"Bob"}}"#)
        #expect(try client.receiveText()?.contains(#""value":"Bob""#) == true)
        #expect(owner.reads.current == 2, "the value before the write (also the audit's), then read back")
        #expect(owner.lookups.current == 1, "once to find the owner, which the transaction takes on")
        #expect(bystander.lookups.current == 1 && bystander.reads.current == 0)
        #expect(owner.listings.current == 0 && bystander.listings.current == 0, "nobody lists every container")
        try client.send(
            #"{"jsonrpc":"2.0","id":2,"method":"set","params":{"scanner":"owner","container":"app","key":"name","value":"Cy"}}"#
        )
        #expect(try client.receiveText()?.contains(#""value":"Cy""#) == true)
        #expect(owner.reads.current == 4 && owner.lookups.current == 2 && bystander.lookups.current == 1)
        let records = agent.auditLog.records()
        #expect(records.count == 2)
        #expect(records.last?.oldRevision == Revision(of: "Bob") && records.last?.newRevision == Revision(of: "Cy"))
    }

    /// Pointer edits, reset and bulk deletes reach watchers at once, not at the scanner's next
    /// poll; a refused write reaches nobody.
    @Test func everyWriteThroughTheAgentIsSeenAtOnce() throws {
        let folder = try TemporaryFolder()
        let scanner = CountedMemoryScanner(
            id: "quiet",
            contents: ["app": ["profile": .dictionary(["tags": .array(["a"])]), "w_1": 1, "w_2": 2, "name": "Ada"]])
        let agent = try JarvisAgent.start(
            scanners: [scanner],
            options: .init(
                name: "quiet", runtimeDirectory: URL(fileURLWithPath: folder.path),
                journalFolder: URL(fileURLWithPath: folder.path + "/journal")))
        defer { agent.stop() }
        let watcher = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        _ = try watcher.watch(scanner: "quiet")
        let writer = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        func seen() throws -> [String] {
            try watcher.nextChange(timeout: .seconds(10))?.changes.map { "\($0.kind) \($0.address.key)" } ?? []
        }
        let profile = PreferenceAddress(scanner: "quiet", container: "app", key: "profile")
        _ = try writer.call(
            "set", ["scanner": "quiet", "container": "app", "key": "profile", "pointer": "/tags/-", "value": "b"])
        #expect(try seen() == ["updated profile"])
        _ = try writer.call("delete", ["scanner": "quiet", "container": "app", "match": "w_*"])
        #expect(try seen() == ["removed w_1", "removed w_2"])
        _ = try writer.call("reset", ["scanner": "quiet", "container": "app", "key": "name"])
        #expect(try seen() == ["removed name"])
        #expect(throws: JarvisError.self) {
            try writer.set(profile, to: "x", expectedRevision: Revision("0000000000000001"))
        }
        #expect(try watcher.nextChange(timeout: .milliseconds(500)) == nil)
    }

    /// Two agents over JSON files (which are never created): one hides `secret.json`, which it
    /// has; the other has no such file. Every method must answer both with the same bytes.
    @Test func aHiddenContainerAnswersEveryMethodLikeOneThatDoesNotExist() throws {
        let folder = try TemporaryFolder()
        func agent(_ name: String, withSecret: Bool) throws -> JarvisAgent {
            let files = URL(fileURLWithPath: "\(folder.path)/\(name)")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            try Data(#"{"name":"Ada"}"#.utf8).write(to: files.appendingPathComponent("app.json"))
            if withSecret {
                try Data(#"{"token":"abc","nested":{"a":1}}"#.utf8).write(
                    to: files.appendingPathComponent("secret.json"))
            }
            var configuration = JarvisConfiguration.debug
            configuration.hide(containers: "secret.json", in: "files")
            configuration.catalog = [KeyDefinition("token", in: "*.json", scanner: "files", type: .string)]
            return try JarvisAgent.start(
                configuration: configuration, scanners: [JSONFilesScanner.jsonFiles(in: [files])],
                options: .init(
                    name: "twin", runtimeDirectory: URL(fileURLWithPath: "\(folder.path)/run-\(name)"),
                    journalFolder: URL(fileURLWithPath: "\(folder.path)/journal-\(name)")))
        }
        let hiding = try agent("hiding", withSecret: true)
        defer { hiding.stop() }
        let lacking = try agent("lacking", withSecret: false)
        defer { lacking.stop() }
        let one = try LineClient(endpoint: .unix(path: hiding.socketPath), timeout: .seconds(10))
        let two = try LineClient(endpoint: .unix(path: lacking.socketPath), timeout: .seconds(10))
        let place = #""scanner":"files","container":"secret.json""#
        let requests = [
            #""method":"get","params":{\#(place),"key":"token"}"#,
            #""method":"get","params":{\#(place),"key":"nested","pointer":"/a"}"#,
            #""method":"get","params":{"container":"secret.json","key":"token"}"#,
            #""method":"set","params":{\#(place),"key":"token","value":"stolen"}"#,
            #""method":"set","params":{\#(place),"key":"token","value":"x","expectedRevision":"0000000000000000"}"#,
            #""method":"set","params":{\#(place),"key":"nested","pointer":"/a","value":2}"#,
            #""method":"set","params":{"container":"secret.json","key":"token","value":"stolen"}"#,
            #""method":"delete","params":{\#(place),"key":"token"}"#,
            #""method":"delete","params":{\#(place),"key":"nested","pointer":"/a"}"#,
            #""method":"delete","params":{\#(place),"match":"*"}"#,
            #""method":"delete","params":{\#(place),"match":"*","dryRun":true}"#,
            #""method":"delete","params":{\#(place),"undeclared":true,"dryRun":true}"#,
            #""method":"delete","params":{\#(place),"undeclared":true}"#,
            #""method":"reset","params":{\#(place),"key":"token"}"#,
            #""method":"list","params":{"container":"secret.json"}"#,
            #""method":"list","params":{"container":"secret.json","undeclared":true}"#,
        ]
        for (index, body) in requests.enumerated() {
            let line = #"{"jsonrpc":"2.0","id":\#(index),\#(body)}"#
            try one.send(line)
            try two.send(line)
            let hidden = try one.receiveText()
            let missing = try two.receiveText()
            #expect(hidden != nil && hidden == missing, "\(body)")
        }
        let kept = try Data(contentsOf: URL(fileURLWithPath: "\(folder.path)/hiding/secret.json"))
        #expect(String(decoding: kept, as: UTF8.self) == #"{"token":"abc","nested":{"a":1}}"#)
    }
}
