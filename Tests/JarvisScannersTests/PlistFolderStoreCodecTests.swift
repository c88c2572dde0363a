import Foundation
import JarvisCore
import JarvisSystem
import JarvisTestSupport
import Testing

@testable import JarvisScanners

/// The plist folder store reads and writes suites with Jarvis's own codec: files stay as they
/// were, and hostile files are named as problems without hanging or ballooning the agent.
@Suite struct PlistFolderStoreCodecTests {
    let folder: TemporaryFolder
    let scanner: DefaultsScanner

    init() throws {
        folder = try TemporaryFolder()
        scanner = .defaults(folder: folder.url)
    }

    /// An XML suite as another program wrote it: its own indentation, a comment, key order.
    static let handWritten = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- kept -->
            <key>zoom</key>
            <real>1.25</real>
            <key>name</key>
            <string>Ada</string>
            <key>when</key>
            <date>2020-02-29T10:00:00Z</date>
            <key>big</key>
            <integer>18446744073709551615</integer>
        </dict>
        </plist>

        """

    @Test func aSetInAnXMLSuiteChangesOneLineAndKeepsTheMode() throws {
        let file = folder.file("app.plist")
        try Data(Self.handWritten.utf8).write(to: file)
        chmod(file.path, 0o640)
        _ = try scanner.read(ReadRequest(container: "app"))
        let entry = try scanner.store(WriteRequest(container: "app", key: "name", change: .set("Grace"))).entry
        #expect(entry?.value == "Grace")
        let after = try String(contentsOf: file, encoding: .utf8)
        #expect(
            after == Self.handWritten.replacingOccurrences(of: "<string>Ada</string>", with: "<string>Grace</string>"))
        var status = stat()
        stat(file.path, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        // A new key goes on its own lines before </dict>, in the file's indentation; a removed one
        // takes its lines with it.
        _ = try scanner.store(WriteRequest(container: "app", key: "added", change: .set(7)))
        _ = try scanner.store(WriteRequest(container: "app", key: "zoom", change: .delete))
        let expected = Self.handWritten
            .replacingOccurrences(of: "<string>Ada</string>", with: "<string>Grace</string>")
            .replacingOccurrences(of: "    <key>zoom</key>\n    <real>1.25</real>\n", with: "")
            .replacingOccurrences(of: "</dict>", with: "    <key>added</key>\n    <integer>7</integer>\n</dict>")
        #expect(try String(contentsOf: file, encoding: .utf8) == expected)
        // What the store serves afterwards is what a fresh read of the file gives.
        let fresh = DefaultsScanner.defaults(folder: folder.url)
        #expect(try scanner.read(ReadRequest(container: "app")) == fresh.read(ReadRequest(container: "app")))
    }

    @Test func aSetInABinarySuiteKeepsEveryOtherValue() throws {
        let members: [PropertyList.Member] = [
            .init("uid", .uid(3)), .init("unsigned", .unsigned(UInt64.max)), .init("float", .real(0.1)),
            .init("date", .date(123.456)), .init("data", .data([1, 2, 3])), .init("count", .integer(1)),
            .init("nested", .dictionary([.init("b", .array([.string("ü"), .boolean(false)]))])),
        ]
        try Data(PropertyListCodec.write(.dictionary(members), as: .binary)).write(to: folder.file("bin.plist"))
        try scanner.write(WriteRequest(container: "bin", key: "count", change: .set(2)))
        let bytes = [UInt8](try Data(contentsOf: folder.file("bin.plist")))
        var expected = members
        expected[5].value = .integer(2)
        #expect(try PropertyListCodec.read(bytes) == (.dictionary(expected), .binary))
        // The UID is shown, never written: its key is read-only.
        let uid = try scanner.read(ReadRequest(container: "bin", keys: ["uid"])).first
        #expect(uid?.isWritable == false)
    }

    /// 1 KB that refers to one array 15^30 times: Foundation's reader (the code before the
    /// codec) ran over 60 s and past 270 MB without finishing on it.
    @Test func aFileThatExpandsWithoutBoundIsAProblemNotAHang() throws {
        // {"k": a}, where a holds 15 references to b, b 15 to c, … 30 arrays deep, then "a".
        var objects: [[UInt8]] = [[0xD1, 0, 1, 0, 2], [0x51, 0x6B]]
        for index in 2..<32 {
            var object: [UInt8] = [0xAF, 0x10, 15]
            for _ in 0..<15 { object += [0, UInt8(index + 1)] }
            objects.append(object)
        }
        objects.append([0x51, 0x61])
        let bomb = Self.binary(objects)
        try Data(bomb).write(to: folder.file("bomb.plist"))
        let start = ContinuousClock.now
        let problem = try scanner.containers().first { $0.name == "bomb" }?.problem
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(problem?.contains("would expand to") == true, "\(problem ?? "no problem")")
        #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: "bomb", key: "k", change: .set(1)))
        }
        #expect([UInt8](try Data(contentsOf: folder.file("bomb.plist"))) == bomb)
    }

    @Test func cyclesDepthAndSizeAreNamedProblems() throws {
        // A dictionary whose value contains the dictionary.
        try Data(Self.binary([[0xD1, 0, 1, 0, 2], [0x51, 0x6B], [0xA1, 0, 0]])).write(to: folder.file("cycle.plist"))
        let deep =
            "<plist version=\"1.0\"><dict><key>k</key>" + String(repeating: "<array>", count: 100_000)
            + String(repeating: "</array>", count: 100_000) + "</dict></plist>"
        try Data(deep.utf8).write(to: folder.file("deep.plist"))
        // 100 MB, mostly a hole: over the 64 MB a suite may have, refused before it is read.
        let huge = open(folder.file("huge.plist").path, O_CREAT | O_WRONLY, 0o600)
        #expect(ftruncate(huge, 100 << 20) == 0)
        close(huge)
        let problems = Dictionary(
            try scanner.containers().map { ($0.name, $0.problem ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(problems["cycle"]?.contains("contains itself") == true, "\(problems["cycle"] ?? "")")
        #expect(problems["deep"]?.contains("deeper than") == true, "\(problems["deep"] ?? "")")
        #expect(problems["huge"]?.isEmpty == false, "\(problems["huge"] ?? "")")
        for name in ["cycle", "deep", "huge"] {
            #expect(throws: JarvisError.self) {
                try scanner.write(WriteRequest(container: name, key: "k", change: .set(1)))
            }
        }
    }

    /// A binary plist from raw objects (4-byte offsets, 2-byte references).
    static func binary(_ objects: [[UInt8]]) -> [UInt8] {
        BinaryPlistBytes.from(objects)
    }
}
