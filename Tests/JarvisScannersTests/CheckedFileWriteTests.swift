import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// The guarded read-modify-write on real files, with another program's write injected at
/// the worst moment (after the new file is ready, before the last check).
@Suite final class CheckedFileWriteTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A file of `key=value` lines, as a stand-in for any format holding keys.
    static func lines(_ bytes: [UInt8]?) -> [String: String] {
        var result: [String: String] = [:]
        for line in String(decoding: bytes ?? [], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    static func text(_ values: [String: String]) -> [UInt8] {
        Array(values.keys.sorted().map { "\($0)=\(values[$0] ?? "")\n" }.joined().utf8)
    }

    /// Sets `key` in the file, with `race` run once before the last check.
    func set(_ key: String, _ value: String, race: @escaping () -> Void) throws(JarvisError) -> Int {
        var calls = 0
        var raced = false
        try CheckedFileWrite.update(
            folder.file("keys"),
            beforeCommit: {
                if !raced {
                    raced = true
                    race()
                }
            }
        ) { version throws(JarvisError) in
            calls += 1
            var values = Self.lines(version.bytes)
            let old = values[key]
            values[key] = value
            return (Self.text(values), old)
        }
        return calls
    }

    func outsideWrite(_ values: [String: String]) {
        // As another program writes: a new file renamed into place.
        let temporary = folder.file("outside.tmp")
        try? Data(Self.text(values)).write(to: temporary)
        _ = rename(temporary.path, folder.file("keys").path)
    }

    @Test func anotherProgramsWriteOfAnotherKeyIsKeptAndTheKeyAppliedAgain() throws {
        try Data(Self.text(["mine": "0", "theirs": "0"])).write(to: folder.file("keys"))
        let calls = try set("mine", "1") { self.outsideWrite(["mine": "0", "theirs": "7"]) }
        #expect(calls == 2)
        #expect(Self.lines([UInt8](try Data(contentsOf: folder.file("keys")))) == ["mine": "1", "theirs": "7"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0 != "keys" }
        #expect(leftovers.isEmpty)
    }

    @Test func anotherProgramsWriteOfTheSameKeyIsAConflictAndKept() throws {
        try Data(Self.text(["mine": "0"])).write(to: folder.file("keys"))
        let error = #expect(throws: JarvisError.self) {
            _ = try self.set("mine", "1") { self.outsideWrite(["mine": "5"]) }
        }
        #expect(error?.code == .conflict)
        #expect(Self.lines([UInt8](try Data(contentsOf: folder.file("keys")))) == ["mine": "5"])
    }

    @Test func aFileCreatedMeanwhileIsNotReplaced() throws {
        let calls = try set("mine", "1") { self.outsideWrite(["theirs": "3"]) }
        #expect(calls == 2)
        #expect(Self.lines([UInt8](try Data(contentsOf: folder.file("keys")))) == ["mine": "1", "theirs": "3"])
    }

    @Test func snapshotsTellVersionsApart() throws {
        try Data("a=1\n".utf8).write(to: folder.file("keys"))
        let first = try CheckedFileWrite.Snapshot.read(folder.file("keys").path)
        #expect(first == (try CheckedFileWrite.Snapshot.read(folder.file("keys").path)))
        outsideWrite(["a": "1"])
        // Same bytes, new inode: another program wrote it.
        #expect(first != (try CheckedFileWrite.Snapshot.read(folder.file("keys").path)))
        #expect(try CheckedFileWrite.Snapshot.read(folder.file("missing").path).bytes == nil)
    }
}
