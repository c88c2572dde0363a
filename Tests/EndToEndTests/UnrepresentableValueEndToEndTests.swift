import Foundation
import JarvisCore
import Testing

/// A binary suite holding a date of NaN, a date of 1e300 seconds and a NaN real of another
/// payload than the wire's, served by the real `jarvis-agent --defaults-dir`: every face shows
/// each as a value with its problem, the rest of the listing is served, and writing another key
/// keeps their stored bytes.
@Suite(.serialized) final class UnrepresentableValueEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    let file: URL

    /// The 8 stored bytes of each odd value, as a binary property list holds them.
    static let nanDate: [UInt8] = [0x7F, 0xF8, 0, 0, 0, 0, 0, 0]
    static let farDate: [UInt8] = bytes(1e300)
    static let oddNaN: [UInt8] = [0x7F, 0xF8, 0, 0, 0, 0, 0, 0x01]

    static func bytes(_ number: Double) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: number.bitPattern >> (56 - 8 * $0)) }
    }

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        file = folder.appendingPathComponent("com.example.odd.plist")
        try sandbox.writeSuite("com.example.good", in: folder, ["theme": "dark"])
        // Foundation writes placeholders a date and a real can hold; their 8 bytes after the
        // marker (0x33 a date, 0x23 a real) are then replaced by the odd ones.
        var bytes = [UInt8](
            try PropertyListSerialization.data(
                fromPropertyList: [
                    "when": Date(timeIntervalSinceReferenceDate: 1111),
                    "far": Date(timeIntervalSinceReferenceDate: 2222),
                    "ratio": NSNumber(value: 3333.5), "name": "Ada",
                ], format: .binary, options: 0))
        for (marker, placeholder, odd) in [
            (UInt8(0x33), 1111.0, Self.nanDate), (0x33, 2222.0, Self.farDate), (0x23, 3333.5, Self.oddNaN),
        ] {
            let at = try #require(Self.find([marker] + Self.bytes(placeholder), in: bytes), "no \(placeholder)")
            bytes.replaceSubrange((at + 1)..<(at + 9), with: odd)
        }
        try Data(bytes).write(to: file)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    private func storedStillHoldsTheOddBytes() throws {
        let stored = [UInt8](try Data(contentsOf: file))
        #expect(Self.find([0x33] + Self.nanDate, in: stored) != nil, "the NaN date was rewritten")
        #expect(Self.find([0x33] + Self.farDate, in: stored) != nil, "the far date was rewritten")
        #expect(Self.find([0x23] + Self.oddNaN, in: stored) != nil, "the NaN real was rewritten")
    }

    @Test func everyFaceShowsTheValueWithItsProblemAndAWriteKeepsItsBytes() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])

        let everything = try sandbox.jarvis("ls")
        #expect(everything.status == 0, "\(everything.stdout)\(everything.stderr)")
        #expect(everything.stdout.contains("theme") && everything.stdout.contains("Ada"), "\(everything.stdout)")
        let listing = try sandbox.jarvis("ls", "com.example.odd")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("<unrepresentable date"), "\(listing.stdout)")
        #expect(listing.stdout.contains("<unrepresentable real"), "\(listing.stdout)")

        let get = try sandbox.jarvis("get", "com.example.odd", "when")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout.contains("NaN seconds from 2001-01-01"), "\(get.stdout)")
        let far = try sandbox.jarvis("get", "com.example.odd", "far")
        #expect(far.stdout.contains("1e+300 seconds from 2001-01-01"), "\(far.stdout)\(far.stderr)")

        let exact = try sandbox.jarvis("--json", "get", "com.example.odd", "when")
        let wire = #"{"$unrepresentable":"date","$bytes":"\#(Data(Self.nanDate).base64EncodedString())""#
        #expect(exact.stdout.contains(wire), "\(exact.stdout)")

        let export = try sandbox.jarvis("export", "com.example.odd")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""$unrepresentable": "real""#), "\(export.stdout)")

        // MCP: the whole listing, the odd values with their problem.
        let answers = try sandbox.mcpSession(
            bytes: Array(
                [
                    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"odd-test","version":"1"}}}"#,
                    #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_preferences","arguments":{}}}"#,
                ].joined(separator: "\n").utf8) + [10])
        let listed = try #require(answers.first { $0["id"]?.int64Value == 2 })
        let listedText = JSONWriter.string(listed)
        #expect(listed["result"]?["isError"] != .bool(true), "\(listedText)")
        #expect(listedText.contains("theme") && listedText.contains("NaN seconds from 2001-01-01"), "\(listedText)")

        // Another key of the same suite: the file is written again, the odd bytes as they were.
        let set = try sandbox.jarvis("set", "com.example.odd", "name", "Grace")
        #expect(set.status == 0, "\(set.stderr)")
        try storedStillHoldsTheOddBytes()
        #expect(try sandbox.jarvis("get", "com.example.odd", "name").stdout == "Grace\n")

        // The wire's object written back stores exactly those bytes, seen by `jarvis watch`.
        let (watch, seen) = try sandbox.startJarvisGathering(["watch", "com.example.odd"])
        defer {
            kill(watch.processIdentifier, SIGKILL)
            watch.waitUntilExit()
        }
        let copy = #"{"$unrepresentable":"date","$bytes":"\#(Data(Self.nanDate).base64EncodedString())"}"#
        let deadline = Date().addingTimeInterval(30)
        var key = 0
        // The watch may not be subscribed yet: write until a change is printed.
        while !seen.current.contains("unrepresentable date"), Date() < deadline {
            key += 1
            let written = try sandbox.jarvis("set", "com.example.odd", "copy\(key)", copy, "--type", "json")
            #expect(written.status == 0, "\(written.stderr)")
            if written.status != 0 { break }
            let wait = Date().addingTimeInterval(1)
            while !seen.current.contains("unrepresentable date"), Date() < wait { usleep(20_000) }
        }
        #expect(seen.current.contains("copy") && seen.current.contains("unrepresentable date"), "\(seen.current)")
        #expect(watch.isRunning, "watch quit: \(seen.current)")
        let back = try sandbox.jarvis("--json", "get", "com.example.odd", "copy1")
        #expect(back.stdout.contains(wire), "\(back.stdout)\(back.stderr)")
        try storedStillHoldsTheOddBytes()
        // An XML suite has no such date: refused, nothing written.
        let xml = folder.appendingPathComponent("com.example.good.plist")
        let before = try Data(contentsOf: xml)
        let refused = try sandbox.jarvis("set", "com.example.good", "when", copy, "--type", "json")
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("when"), "\(refused.stderr)")
        #expect(try Data(contentsOf: xml) == before)
        #expect(agent.isAlive)
    }
}
