import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// The `files` scanner on real files in a fresh temporary folder, through a real hub.
@Suite final class JSONFilesScannerTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("jarvis-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("env"), withIntermediateDirectories: true)
        try write(
            "app.json",
            """
            {
              "name": "Demo",
              "server": {"host": "localhost", "port": 8080, "ratio": 1.50},
              "tags": ["a", "b"],
              "zeta": true
            }

            """)
        try write("env/prod.json", #"{"replicas":3,"log":{"level":"warn"}}"#)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    func text(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
    }

    func hub(_ scanner: JSONFilesScanner? = nil) -> JarvisHub {
        let hub = JarvisHub()
        hub.register(scanner ?? .jsonFiles(in: [folder]))
        return hub
    }

    func address(_ container: String, _ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "files", container: container, key: key)
    }

    @Test func listsFilesRecursivelyWithTypedValues() throws {
        let hub = hub()
        #expect(try hub.containers().map(\.name) == ["app.json", "env/prod.json"])
        let items = try hub.list().items
        #expect(items.first { $0.address.key == "replicas" }?.value == .integer(3))
        let server = try #require(items.first { $0.address.key == "server" }?.value)
        #expect(server == ["host": "localhost", "port": 8080, "ratio": 1.5])
    }

    @Test func pointerEditKeepsOrderLayoutNumbersAndPermissions() throws {
        chmod(folder.appendingPathComponent("app.json").path, 0o600)
        let hub = hub()
        let item = try hub.set(address("app.json", "server"), pointer: JSONPointer(parsing: "/port"), to: 9090)
        #expect(item.value == 9090)
        #expect(
            try text("app.json") == """
                {
                  "name": "Demo",
                  "server": {"host": "localhost", "port": 9090, "ratio": 1.50},
                  "tags": ["a", "b"],
                  "zeta": true
                }

                """)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("app.json").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try hub.set(address("env/prod.json", "log"), pointer: JSONPointer(parsing: "/level"), to: "info")
        try hub.set(address("env/prod.json", "added"), to: ["x": 1.0])
        #expect(try text("env/prod.json") == #"{"replicas":3,"log":{"level":"info"},"added":{"x":1.0}}"#)
        try hub.delete(address("env/prod.json", "replicas"))
        #expect(try text("env/prod.json") == #"{"log":{"level":"info"},"added":{"x":1.0}}"#)
        let appended = try hub.set(address("app.json", "tags"), pointer: JSONPointer(parsing: "/-"), to: "c")
        #expect(appended.pointer?.description == "/2")
        #expect(try hub.get(address("app.json", "tags")).value == ["a", "b", "c"])
    }

    @Test func invalidFilesAreListedWithTheirLineAndNeverWritten() throws {
        let broken = "{\n  \"a\": 1\n  \"b\": 2\n}\n"
        try write("broken.json", broken)
        try write("list.json", "[1, 2]")
        let hub = hub()
        let result = try hub.list()
        let problem = try #require(result.problems.first { $0.name == "broken.json" }?.problem)
        #expect(problem.contains("line 3, column 3"))
        #expect(problem.contains("a comma must separate members"))
        #expect(result.problems.first { $0.name == "list.json" }?.problem?.contains("top level is an array") == true)
        let before = try Data(contentsOf: folder.appendingPathComponent("broken.json"))
        #expect(throws: JarvisError.self) { try hub.set(address("broken.json", "a"), to: 5) }
        #expect(throws: JarvisError.self) { try hub.delete(address("broken.json", "a")) }
        #expect(throws: (any Error).self) {
            try JSONFilesScanner.jsonFiles(in: [folder]).write(
                WriteRequest(container: "broken.json", key: "a", change: .set(5)))
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("broken.json")) == before)
    }

    @Test func aValueChangedOnDiskGivesAConflict() throws {
        let hub = hub()
        let seen = try hub.get(address("app.json", "name"))
        try write("app.json", #"{"name":"Changed elsewhere"}"#)
        let error = #expect(throws: JarvisError.self) {
            try hub.set(address("app.json", "name"), to: "Mine", expectedRevision: seen.revision)
        }
        #expect(error?.code == .conflict)
        #expect(try text("app.json") == #"{"name":"Changed elsewhere"}"#)
    }

    @Test func aFileChangedDuringTheWriteGivesAConflictAndKeepsTheOtherWrite() throws {
        let url = folder.appendingPathComponent("app.json")
        var scanner = JSONFilesScanner.jsonFiles(in: [folder])
        scanner.beforeCommit = { try? Data(#"{"name":"raced"}"#.utf8).write(to: url) }
        let error = #expect(throws: JarvisError.self) { try hub(scanner).set(address("app.json", "name"), to: "Mine") }
        #expect(error?.code == .conflict)
        #expect(try text("app.json") == #"{"name":"raced"}"#)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func anotherProgramsWriteOfAnotherKeyIsKeptAndTheEditMadeOnTopOfIt() throws {
        let url = folder.appendingPathComponent("app.json")
        let theirs = "{\n\t\"name\": \"Demo\",\n\t\"zeta\": true,\n\t\"theirs\": 7\n}\n"
        let raced = Locked(false)
        var scanner = JSONFilesScanner.jsonFiles(in: [folder])
        scanner.beforeCommit = {
            guard
                !raced.withLock({ (done: inout Bool) in
                    defer { done = true }; return done
                })
            else { return }
            try? Data(theirs.utf8).write(to: url)
        }
        try hub(scanner).set(address("app.json", "zeta"), to: false)
        #expect(try text("app.json") == theirs.replacingOccurrences(of: "true", with: "false"))
    }

    @Test func aKeyAnotherProgramChangedSinceItWasReadIsAConflict() throws {
        let scanner = JSONFilesScanner.jsonFiles(in: [folder])
        let url = folder.appendingPathComponent("env/prod.json")
        _ = try scanner.read(ReadRequest(container: "env/prod.json"))
        let theirs = #"{"replicas":5,"log":{"level":"warn"}}"#
        try Data(theirs.utf8).write(to: url, options: .atomic)
        let error = #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: "env/prod.json", key: "replicas", change: .set(4)))
        }
        #expect(error?.code == .conflict)
        #expect(try text("env/prod.json") == theirs)
        // Another key changed since the read: kept, and the write made on top of it.
        _ = try scanner.read(ReadRequest(container: "env/prod.json"))
        try Data(#"{"replicas":5,"log":{"level":"debug"}}"#.utf8).write(to: url, options: .atomic)
        try scanner.write(WriteRequest(container: "env/prod.json", key: "replicas", change: .set(6)))
        #expect(try text("env/prod.json") == #"{"replicas":6,"log":{"level":"debug"}}"#)
    }

    @Test func nullMakesAKeyReadOnlyAndDatesAreRefused() throws {
        try write("nulls.json", #"{"proxy":null,"nested":{"a":null,"b":1},"big":123456789012345678901234,"ok":1}"#)
        let hub = hub()
        let items = try hub.list(ListQuery(container: "nulls.json")).items
        #expect(items.first { $0.address.key == "proxy" }?.isWritable == false)
        #expect(items.first { $0.address.key == "nested" }?.isWritable == false)
        #expect(items.first { $0.address.key == "big" }?.isWritable == true)
        #expect(items.first { $0.address.key == "big" }?.value == .integer(decimal: "123456789012345678901234"))
        #expect(items.first { $0.address.key == "ok" }?.isWritable == true)
        #expect(throws: JarvisError.self) {
            try hub.set(address("nulls.json", "nested"), pointer: JSONPointer(parsing: "/b"), to: 2)
        }
        let date = #expect(throws: JarvisError.self) { try hub.set(address("nulls.json", "ok"), to: .date(Date())) }
        #expect(date?.code == .typeMismatch)
        #expect(
            try text("nulls.json") == #"{"proxy":null,"nested":{"a":null,"b":1},"big":123456789012345678901234,"ok":1}"#
        )
    }

    @Test func readersNeverSeeATornFileDuring1000Writes() throws {
        let url = folder.appendingPathComponent("app.json")
        let padding = String(repeating: "x", count: 16 * 1024)
        try write("app.json", "{\"count\":0,\"padding\":\"\(padding)\"}")
        let hub = hub()
        let stop = Locked(false)
        let failures = Locked<[String]>([])
        let reads = Locked(0)
        let reader = Thread {
            while !stop.current {
                guard let data = try? Data(contentsOf: url) else {
                    failures.withLock { $0.append("file missing") }
                    continue
                }
                do {
                    let json = try JSONParser.parse(data)
                    if json["padding"]?.stringValue?.count != padding.count {
                        failures.withLock { $0.append("padding lost") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                reads.withLock { $0 += 1 }
            }
        }
        reader.start()
        for count in 1...1000 {
            try hub.set(address("app.json", "count"), to: .integer(Int64(count)))
        }
        stop.withLock { $0 = true }
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(failures.current.isEmpty, "\(failures.current.prefix(3))")
        #expect(reads.current > 0)
        #expect(try hub.get(address("app.json", "count")).value == 1000)
    }
}
