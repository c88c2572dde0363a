import Foundation
import JarvisCore
import Testing

/// Issue 27 item 1 over the socket, through the real `jarvis-agent` and `jarvis`: a JSON file
/// and a defaults suite that hold `señal` twice, composed (`ñ`) and decomposed (`n` + U+0303),
/// hold one name twice. Each is refused as a whole with a message that names no key; a get,
/// set or delete in either spelling (or of another key of the file) reads nothing and writes
/// nothing, and a hide rule on the name changes none of that.
@Suite struct TwoSpellingsEndToEndTests {
    static let composed = "se\u{00F1}al"
    static let decomposed = "sen\u{0303}al"

    @Test(arguments: [nil, "se*"] as [String?]) func aFileHoldingOneNameTwiceIsRefusedOverTheSocket(hide: String?)
        throws
    {
        let sandbox = try Sandbox()
        let files = sandbox.root.appendingPathComponent("files")
        let defaults = sandbox.root.appendingPathComponent("defaults")
        for folder in [files, defaults] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let json = files.appendingPathComponent("cuentas.json")
        let suite = defaults.appendingPathComponent("app.plist")
        let jsonBytes = Data(
            #"{"\#(Self.composed)":"composed","\#(Self.decomposed)":"decomposed","theme":"dark"}"#.utf8)
        let suiteBytes = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>\(Self.composed)</key>
            \t<string>composed</string>
            \t<key>\(Self.decomposed)</key>
            \t<string>decomposed</string>
            \t<key>theme</key>
            \t<string>dark</string>
            </dict>
            </plist>
            """.utf8)
        try jsonBytes.write(to: json)
        try suiteBytes.write(to: suite)
        try sandbox.startAgent(
            ["--files", files.path, "--defaults-dir", defaults.path] + (hide.map { ["--hide-key", $0] } ?? []))

        for round in ["before a listing", "after a listing"] {
            for container in ["files:cuentas.json", "defaults:app"] {
                for key in [Self.composed, Self.decomposed, "theme"] {
                    for command in [["get", container, key], ["set", container, key, "x"], ["rm", container, key]] {
                        let result = try sandbox.run(try Binaries.url("jarvis"), command)
                        #expect(result.status != 0, "\(command) \(round) was answered: \(result.stdout)")
                        #expect(!result.stdout.contains("composed"), "\(command) \(round): \(result.stdout)")
                        #expect(result.stderr.contains("twice"), "\(command) \(round): \(result.stderr)")
                        // A hidden name is answered as a name the file does not hold.
                        var missing = command
                        missing[2] = "zz_missing"
                        let other = try sandbox.run(try Binaries.url("jarvis"), missing)
                        #expect(
                            other.stderr.replacingOccurrences(of: "zz_missing", with: key) == result.stderr,
                            "\(command) \(round)")
                    }
                }
            }
            let listing = try sandbox.jarvis("ls", "--json")
            let page = try JSONParser.parse(Data(listing.stdout.utf8))
            #expect(page["items"]?.arrayValue?.isEmpty == true, "\(round): \(listing.stdout)")
            let problems = page["problems"]?.arrayValue?.compactMap { $0["problem"]?.stringValue } ?? []
            #expect(problems.count == 2 && problems.allSatisfy { $0.contains("twice") }, "\(problems)")
            #expect(!problems.contains { $0.precomposedStringWithCanonicalMapping.contains(Self.composed) })
        }
        #expect(try Data(contentsOf: json) == jsonBytes)
        #expect(try Data(contentsOf: suite) == suiteBytes)
    }

    /// Two files whose names are one name in two spellings (Linux keeps both): the name is
    /// listed once, with the problem, and neither file is read or written under either spelling.
    /// Before, `ls` showed one of them and a `get` in each spelling answered a different file.
    @Test func twoFilesNamedInTwoSpellingsAreRefusedUnderBoth() throws {
        let sandbox = try Sandbox()
        let files = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let composed = files.appendingPathComponent(Self.composed + ".json")
        let decomposed = files.appendingPathComponent(Self.decomposed + ".json")
        try Data(#"{"a":"composed"}"#.utf8).write(to: composed)
        try Data(#"{"a":"decomposed"}"#.utf8).write(to: decomposed)
        guard try FileManager.default.contentsOfDirectory(atPath: files.path).count == 2 else {
            return  // A volume that keeps one spelling (Apple's) cannot hold both.
        }
        try Data(#"{"ok":1}"#.utf8).write(to: files.appendingPathComponent("plain.json"))
        try sandbox.startAgent(["--files", files.path])
        let listed = try sandbox.jarvis("ls")
        let listing = listed.stdout + listed.stderr
        #expect(listing.contains("plain.json"), "\(listing)")
        #expect(listing.contains("two Unicode spellings"), "\(listing)")
        // Neither file's key is listed.
        #expect(!listing.split(separator: "\n").contains { $0.hasPrefix("  a ") }, "\(listing)")
        for name in [Self.composed, Self.decomposed] {
            for command in [["get", "files:\(name).json", "a"], ["set", "files:\(name).json", "a", "x"], ["rm", "files:\(name).json", "a"]] {
                let result = try sandbox.run(try Binaries.url("jarvis"), command)
                #expect(result.status != 0, "\(command) was answered: \(result.stdout)")
                #expect(result.stderr.contains("two Unicode spellings"), "\(command): \(result.stderr)")
            }
        }
        #expect(try String(contentsOf: composed, encoding: .utf8) == #"{"a":"composed"}"#)
        #expect(try String(contentsOf: decomposed, encoding: .utf8) == #"{"a":"decomposed"}"#)
    }
}
