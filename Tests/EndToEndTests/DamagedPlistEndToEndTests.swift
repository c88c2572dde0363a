import Foundation
import JarvisCore
import JarvisTransport
import Testing

/// Damaged and hostile suite files served by the real `jarvis-agent --defaults-dir`: every one
/// is a clear problem in `jarvis get`, `jarvis ls` and `jarvis set` (which writes nothing), the
/// files stay byte for byte as they were, and the agent keeps answering. A suite replaced while
/// it is read, atomically or in place, is read as the old or the new content whole, or a problem.
@Suite(.serialized) final class DamagedPlistEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func file(_ suite: String) -> URL { folder.appendingPathComponent(suite + ".plist") }

    /// A binary plist whose top dictionary holds, under `k`, an array holding that dictionary:
    /// objects, then their offset table (8, 13, 15), then the trailer (4-byte offsets, 2-byte
    /// references, 3 objects, top 0, table at 18).
    private static let cycle: [UInt8] =
        Array("bplist00".utf8) + [0xD1, 0x00, 0x01, 0x00, 0x02, 0x51, 0x6B, 0xA1, 0x00, 0x00]
        + [0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x0D, 0x00, 0x00, 0x00, 0x0F]
        + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x02] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0]
        + [0, 0, 0, 0, 0, 0, 0, 0x12]

    private static func nested(_ levels: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>k</key>"
            + String(repeating: "<array>", count: levels) + "<integer>1</integer>"
            + String(repeating: "</array>", count: levels) + "</dict></plist>\n"
    }

    @Test func everyDamagedSuiteIsAClearProblemInEveryCommandAndStaysAsItWas() throws {
        try sandbox.writeSuite("com.example.good", in: folder, ["theme": "dark"])
        // A good binary suite cut in the middle of its offset table.
        let whole = try PropertyListSerialization.data(
            fromPropertyList: ["k": "value", "n": 42], format: .binary, options: 0)
        try Data(whole.prefix(whole.count - 20)).write(to: file("truncated"))
        try Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>k</key><string>open".utf8)
            .write(to: file("broken"))
        // A dictionary whose value is the dictionary itself, through the offset table.
        try Data(Self.cycle).write(to: file("cycle"))
        try Data(Self.nested(300).utf8).write(to: file("toodeep"))
        // 100 MB, mostly a hole: refused before it is read.
        let huge = open(file("huge").path, O_CREAT | O_WRONLY, 0o600)
        #expect(ftruncate(huge, 100 << 20) == 0)
        close(huge)
        let names = ["truncated", "broken", "cycle", "toodeep", "huge"]
        var before: [String: Data] = [:]
        for name in names where name != "huge" { before[name] = try Data(contentsOf: file(name)) }

        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let listing = try sandbox.run(Binaries.url("jarvis"), ["ls"], limit: 120)
        #expect(listing.stdout.contains("theme"), "\(listing.stdout)\(listing.stderr)")
        for name in names {
            let line = (listing.stdout + listing.stderr).split(separator: "\n").first {
                $0.hasPrefix("defaults:\(name):")
            }
            #expect(line != nil, "no problem line for \(name): \(listing.stdout)")

            let get = try sandbox.run(Binaries.url("jarvis"), ["get", name, "k"], limit: 120)
            #expect(get.status != 0)
            #expect(get.stderr.contains(name) && get.stderr.count > name.count + 20, "\(name): \(get.stderr)")

            let set = try sandbox.run(Binaries.url("jarvis"), ["set", name, "k", "1", "--int", "--new"], limit: 120)
            #expect(set.status != 0, "\(name): \(set.stdout)")
        }
        #expect(listing.stdout.contains("contains itself"), "\(listing.stdout)")
        #expect(listing.stdout.contains("deeper than"), "\(listing.stdout)")
        for (name, bytes) in before { #expect(try Data(contentsOf: file(name)) == bytes, "\(name) was rewritten") }
        let attributes = try FileManager.default.attributesOfItem(atPath: file("huge").path)
        #expect((attributes[.size] as? NSNumber)?.intValue == 100 << 20)
        #expect(agent.isAlive)
        #expect(agent.answersANewClient())
    }

    @Test func twoHundredLevelsAreReadWhole() throws {
        try Data(Self.nested(200).utf8).write(to: file("deep"))
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let get = try sandbox.run(Binaries.url("jarvis"), ["get", "deep", "/k" + String(repeating: "/0", count: 200)])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "1\n")
        let list = try sandbox.run(Binaries.url("jarvis"), ["ls", "deep", "--json"])
        #expect(list.status == 0 && list.stdout.contains("\"k\""), "\(list.stderr)")
        #expect(agent.isAlive)
    }

    /// About 2 MB of XML whose first and last keys both say which write made it.
    private static func content(round: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        text += "\t<key>a_round</key>\n\t<integer>\(round)</integer>\n"
        let value = String(repeating: "v", count: 200)
        for index in 0..<8_000 { text += "\t<key>k\(index)</key>\n\t<string>\(value)</string>\n" }
        text += "\t<key>z_round</key>\n\t<integer>\(round)</integer>\n</dict>\n</plist>\n"
        return Array(text.utf8)
    }

    @Test(arguments: [false, true])
    func aSuiteReplacedWhileItIsReadIsOldOrNewWholeOrAProblem(inPlace: Bool) throws {
        let path = file("com.example.race").path
        try Data(Self.content(round: 0)).write(to: URL(fileURLWithPath: path))
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let rounds = 15
        let writing = Locked(true)
        let writer = Thread {
            for round in 1...rounds {
                let bytes = Self.content(round: round)
                if inPlace {
                    // In pieces: a reader may meet any prefix of the new content.
                    guard let handle = FileHandle(forWritingAtPath: path) else { break }
                    handle.truncateFile(atOffset: 0)
                    for start in stride(from: 0, to: bytes.count, by: 64 * 1024) {
                        handle.write(Data(bytes[start..<min(bytes.count, start + 64 * 1024)]))
                    }
                    try? handle.close()
                } else {
                    // As Foundation and editors save: a new file renamed over the old one.
                    let temporary = path + ".tmp"
                    _ = FileManager.default.createFile(atPath: temporary, contents: Data(bytes))
                    rename(temporary, path)
                }
            }
            writing.withLock { $0 = false }
        }
        writer.start()
        var client = try RawAgentClient(agent)
        var answers = 0
        while writing.current || answers < 3 {
            let answer = try client.ask(
                #"{"jsonrpc":"2.0","id":1,"method":"list","params":{"scanner":"defaults","container":"com.example.race","key":"?_round"}}"#
                    + "\n", timeout: .seconds(60))
            let items = answer?["result"]?["items"]?.arrayValue ?? []
            let problems = answer?["result"]?["problems"]?.arrayValue ?? []
            if problems.isEmpty {
                // One parse of one version: its first and last keys agree.
                let values = items.compactMap { $0["value"]?.int64Value }
                #expect(values.count == 2 && values.first == values.last, "not one whole version: \(items)")
            } else {
                let message = problems.first?["problem"]?.stringValue ?? ""
                #expect(!message.isEmpty, "a problem with no words: \(problems)")
            }
            answers += 1
        }
        try waitUntil("the listing shows the last write") {
            let answer = try? client.ask(
                #"{"jsonrpc":"2.0","id":2,"method":"get","params":{"scanner":"defaults","container":"com.example.race","key":"z_round"}}"#
                    + "\n", timeout: .seconds(30))
            return answer?["result"]?["item"]?["value"]?.int64Value == Int64(rounds)
        }
        // Jarvis only read: the file is the last write's bytes.
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == Self.content(round: rounds))
        #expect(agent.isAlive)
    }
}
