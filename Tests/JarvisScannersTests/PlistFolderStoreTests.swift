import Foundation
import JarvisCore
import JarvisSystem
import Testing

@testable import JarvisScanners

@Suite struct PlistFolderStoreTests {
    let folder: TemporaryFolder
    let scanner: DefaultsScanner

    init() throws {
        folder = try TemporaryFolder()
        scanner = .defaults(folder: folder.url)
    }

    @Test func listsEverySuiteAndHidesAppleDomains() throws {
        try folder.writePlist("com.example.app.plist", ["a": 1])
        try folder.writePlist("group.shared.plist", ["b": 2], format: .binary)
        try folder.writePlist("com.apple.finder.plist", ["c": 3])
        try folder.writePlist(".GlobalPreferences.plist", ["d": 4])
        try Data("not a plist".utf8).write(to: folder.file("notes.txt"))

        // The scanner lists every suite; the hub hides Apple's, as if absent.
        let hub = JarvisHub()
        hub.register(scanner)
        #expect(try hub.containers().map(\.name) == ["com.example.app", "group.shared"])
        #expect(
            try scanner.containers().map(\.name) == [
                ".GlobalPreferences", "com.apple.finder", "com.example.app", "group.shared",
            ])
        let all = DefaultsScanner.defaults(folder: folder.url, includeSystemDomains: true)
        #expect(!all.storedNames(container: "com.apple.finder", key: nil).isSystem)
        #expect(scanner.id == "defaults")
        #expect(scanner.info.unavailableReason == nil)
    }

    /// A suite large enough to be converted on several threads reads whole, each key with its
    /// value and type, in key order.
    @Test func aLargeSuiteConvertedOnSeveralThreadsReadsWhole() throws {
        var plist: [String: Any] = [:]
        for index in 0..<10_000 {
            switch index % 4 {
            case 0: plist["k\(index)"] = index
            case 1: plist["k\(index)"] = "v\(index)"
            case 2: plist["k\(index)"] = index % 8 == 2
            default: plist["k\(index)"] = ["n": index]
            }
        }
        try folder.writePlist("big.plist", plist, format: .binary)
        let entries = try scanner.read(ReadRequest(container: "big"))
        #expect(entries.count == 10_000)
        #expect(entries.map(\.key) == entries.map(\.key).sorted())
        #expect(Set(entries.map(\.key)).count == 10_000)
        for entry in entries {
            let index = try #require(Int(entry.key.dropFirst()))
            switch index % 4 {
            case 0: #expect(entry.value == .integer(Int64(index)))
            case 1: #expect(entry.value == .string("v\(index)"))
            case 2: #expect(entry.value == .boolean(index % 8 == 2))
            default: #expect(entry.value == .dictionary(["n": .integer(Int64(index))]))
            }
        }
    }

    #if os(Linux)
        /// A key served from memory is served so only as the checkpoint passed in allows: with
        /// none, a change pending in the folder's notifications is read and the key is not
        /// served from memory; past a checkpoint the folder's watch already read at, that
        /// reading stands (the key is served from memory, as it was then); past a new one, the
        /// change is read. The watch keeps its own reading, so the checkpoints other tests pass
        /// meanwhile change nothing here.
        @Test func readFromMemoryFollowsTheCheckpointPassedIn() throws {
            for round in 0..<20 {
                try folder.writePlist("app.plist", ["name": "v\(round)"])
                let start = ContinuousClock.now
                // A look, then a read the quiet folder vouches for: the suite is held in memory.
                while scanner.readFromMemory(key: "name", in: "app", checkpoint: .none) == nil,
                    ContinuousClock.now - start < .seconds(10)
                {
                    _ = scanner.storedNames(container: "app", key: nil)
                    _ = try scanner.read(key: "name", in: "app")
                }
                let checkpoint = ChangeCheckpoint.pass()
                let held = scanner.readFromMemory(key: "name", in: "app", checkpoint: checkpoint)
                #expect(held?.value == .string("v\(round)"))

                try folder.writePlist("app.plist", ["name": "changed"])
                // Pending: past the checkpoint the watch read at, that reading stands.
                let past = scanner.readFromMemory(key: "name", in: "app", checkpoint: checkpoint)
                #expect(past?.value == .string("v\(round)"), "round \(round): the reading did not stand")
                // No checkpoint: the change is read now, and the key must be looked at.
                #expect(scanner.readFromMemory(key: "name", in: "app", checkpoint: .none) == nil)
                #expect(scanner.readFromMemory(key: "name", in: "app", checkpoint: ChangeCheckpoint.pass()) == nil)
                #expect(try scanner.read(key: "name", in: "app")?.value == .string("changed"))
            }
        }
    #endif

    @Test func missingFolderMakesTheScannerUnavailable() {
        let missing = DefaultsScanner.defaults(folder: folder.file("nope"))
        #expect(missing.info.unavailableReason != nil)
        #expect(throws: JarvisError.self) { try missing.containers() }
    }

    /// A folder removed after it was served makes the scanner unavailable, also while its
    /// changes were being heard (then the folder's own removal tells).
    @Test func aServedFolderRemovedMakesTheScannerUnavailable() throws {
        let parent = try TemporaryFolder()
        let served = parent.file("prefs")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: false)
        try Data(PropertyListSerialization.data(fromPropertyList: ["k": 1], format: .xml, options: 0))
            .write(to: served.appendingPathComponent("app.plist"))
        let scanner = DefaultsScanner.defaults(folder: served)
        #expect(try scanner.read(key: "k", in: "app")?.value == .integer(1))
        #expect(scanner.info.unavailableReason == nil)
        try FileManager.default.removeItem(at: served)
        let start = ContinuousClock.now
        while scanner.info.unavailableReason == nil, ContinuousClock.now - start < .seconds(30) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(scanner.info.unavailableReason != nil)
        #expect(try scanner.read(key: "k", in: "app") == nil)
    }

    @Test func everyTypeRoundTripsThroughTheFile() throws {
        try folder.writePlist("app.plist", [String: Any]())
        guard case .dictionary(let values) = everyType else { return }
        for (key, value) in values {
            try scanner.write(WriteRequest(container: "app", key: key, change: .set(value)))
        }
        let entries = try scanner.read(ReadRequest(container: "app"))
        #expect(entries.count == values.count)
        for (key, value) in values {
            #expect(entries[key: key]?.value == value, "\(key)")
            #expect(entries[key: key]?.layer == .stored)
        }
        // The file itself holds the kinds Foundation would write: a real stays a real.
        let stored = try folder.readPlist("app.plist").object as? [String: Any]
        #expect(stored?["true"] is Bool)
        #expect((stored?["real"] as? NSNumber).map { String(cString: $0.objCType) } == "d")
    }

    @Test func writeIsAtomicAndKeepsPermissionsAndFormat() throws {
        try folder.writePlist("binary.plist", ["keep": "me"], format: .binary)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640], ofItemAtPath: folder.file("binary.plist").path)
        try folder.writePlist("xml.plist", ["keep": "me"], format: .xml)
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: folder.file("xml.plist").path)

        try scanner.write(WriteRequest(container: "binary", key: "added", change: .set(42)))
        try scanner.write(WriteRequest(container: "xml", key: "added", change: .set(true)))

        #expect(try folder.readPlist("binary.plist").format == .binary)
        #expect(try folder.readPlist("xml.plist").format == .xml)
        let binaryMode =
            try FileManager.default.attributesOfItem(atPath: folder.file("binary.plist").path)[.posixPermissions]
            as? NSNumber
        let xmlMode =
            try FileManager.default.attributesOfItem(atPath: folder.file("xml.plist").path)[.posixPermissions]
            as? NSNumber
        #expect(binaryMode?.intValue == 0o640)
        #expect(xmlMode?.intValue == 0o604)
        let entries = try scanner.read(ReadRequest(container: "binary"))
        #expect(entries[key: "keep"]?.value == "me")
        #expect(entries[key: "added"]?.value == 42)
        // No temporary file is left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
                "binary.plist", "xml.plist",
            ])
    }

    @Test func invalidFileIsListedWithItsProblemAndNeverTouched() throws {
        let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8)
        try garbage.write(to: folder.file("broken.plist"))
        try folder.writePlist("array.plist", [1, 2])

        let containers = try scanner.containers()
        let broken = containers.first { $0.name == "broken" }
        #expect(broken?.problem != nil)
        #expect(broken?.isWritable == false)
        #expect(containers.first { $0.name == "array" }?.problem?.contains("not a dictionary") == true)

        #expect(throws: JarvisError.self) { try scanner.read(ReadRequest(container: "broken")) }
        #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: "broken", key: "a", change: .set(1)))
        }
        #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: "broken", key: "a", change: .delete))
        }
        #expect(try Data(contentsOf: folder.file("broken.plist")) == garbage)
    }

    /// Foundation reads a damaged binary plist as old-style text (a string, or "unexpected
    /// character b"): the problem must say the file is a damaged binary plist instead.
    @Test func aDamagedBinaryPlistIsNamedAsOne() throws {
        let whole = try PropertyListSerialization.data(
            fromPropertyList: ["a": 1, "b": String(repeating: "x", count: 50)], format: .binary, options: 0)
        try Data("bplist00garbage".utf8).write(to: folder.file("garbage.plist"))
        try whole.prefix(40).write(to: folder.file("cut.plist"))
        try folder.writePlist("array.plist", [1, 2])
        let containers = try scanner.containers()
        for name in ["garbage", "cut"] {
            let problem = containers.first { $0.name == name }?.problem ?? ""
            #expect(problem.contains("binary property list but is damaged"), "\(name): \(problem)")
        }
        #expect(containers.first { $0.name == "array" }?.problem?.contains("holds an array at the top level") == true)
    }

    @Test func aKeyAnotherProgramChangedSinceItWasReadIsAConflict() throws {
        try folder.writePlist("race.plist", ["count": 1, "other": "a"])
        _ = try scanner.read(ReadRequest(container: "race"))
        try folder.writePlist("race.plist", ["count": 20, "other": "a"])
        let error = #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: "race", key: "count", change: .set(2)))
        }
        #expect(error?.code == .conflict)
        #expect((try folder.readPlist("race.plist").object as? [String: Any])?["count"] as? Int == 20)
        // Another key changed since the read: kept, and the write made on top of it.
        _ = try scanner.read(ReadRequest(container: "race"))
        try folder.writePlist("race.plist", ["count": 20, "other": "changed"])
        try scanner.write(WriteRequest(container: "race", key: "count", change: .set(3)))
        let stored = try folder.readPlist("race.plist").object as? [String: Any]
        #expect(stored?["count"] as? Int == 3)
        #expect(stored?["other"] as? String == "changed")
    }

    @Test func anotherProgramsChangeIsPickedUp() throws {
        try folder.writePlist("app.plist", ["count": 1])
        #expect(try scanner.read(ReadRequest(container: "app"))[key: "count"]?.value == 1)
        // Same size, rewritten in place: the modification time tells the cache.
        try folder.writePlist("app.plist", ["count": 2])
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: folder.file("app.plist").path)
        #expect(try scanner.read(ReadRequest(container: "app"))[key: "count"]?.value == 2)
        try folder.writePlist("app.plist", ["count": 3, "more": "text"])
        #expect(try scanner.read(ReadRequest(container: "app"))[key: "more"]?.value == "text")
    }

    @Test func deleteRemovesTheKeyAndNewSuitesAreCreated() throws {
        try scanner.write(WriteRequest(container: "fresh", key: "a", change: .set("x")))
        #expect(try scanner.containers().map(\.name) == ["fresh"])
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder.file("fresh.plist").path)[.posixPermissions]
            as? NSNumber
        #expect(mode?.intValue == 0o600)
        try scanner.write(WriteRequest(container: "fresh", key: "a", change: .delete))
        #expect(try scanner.read(ReadRequest(container: "fresh")).isEmpty)
        #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: "../escape", key: "a", change: .set(1)))
        }
    }

    @Test func readingOnlySomeKeys() throws {
        try folder.writePlist("app.plist", ["a": 1, "b": 2, "c": 3])
        let entries = try scanner.read(ReadRequest(container: "app", keys: ["b", "missing"]))
        #expect(entries.map(\.key) == ["b"])
        #expect(try scanner.read(ReadRequest(container: "absent")).isEmpty)
    }

    /// A `get` reads one key without the array read; it must give what the array read gives
    /// for that key alone: the same entry, read-only through a link that leads outside, nil
    /// for a missing key or suite, and the same error for a suite that does not parse.
    @Test func oneKeyReadsAsTheArrayReadOfThatKey() throws {
        try folder.writePlist("app.plist", ["a": 1, "b": "two", "c": [1, 2], "d": ["x": true]])
        try Data("not a plist".utf8).write(to: folder.file("broken.plist"))
        let outside = try TemporaryFolder()
        try outside.writePlist("elsewhere.plist", ["e": 5])
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("linked.plist").path, withDestinationPath: outside.file("elsewhere.plist").path)
        let asked = [("app", "a"), ("app", "b"), ("app", "c"), ("app", "d"), ("app", "missing"), ("absent", "a"),
            ("linked", "e")]
        // Twice: the first read parses and caches, the second is served from the cache.
        for _ in 0..<2 {
            for (suite, key) in asked {
                let one = try scanner.read(key: key, in: suite)
                let array = try scanner.read(ReadRequest(container: suite, keys: [key])).first { $0.key == key }
                #expect(one == array, "\(suite) \(key)")
            }
        }
        #expect(try scanner.read(key: "e", in: "linked")?.isWritable == false)
        #expect(try scanner.read(key: "a", in: "app")?.isWritable == true)
        let arrayError = #expect(throws: JarvisError.self) { try scanner.read(ReadRequest(container: "broken", keys: ["a"])) }
        let oneError = #expect(throws: JarvisError.self) { try scanner.read(key: "a", in: "broken") }
        #expect(oneError?.message == arrayError?.message && oneError?.code == .storage)
    }
}
