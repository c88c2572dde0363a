import Foundation
import Testing

/// `jarvis set`: `--type` names the value's type, `--json` chooses the output format, and the
/// old `set … --json` (a JSON value) still works, with a note.
@Suite(.serialized) struct SetTypeEndToEndTests {
    let sandbox: Sandbox
    let files: URL

    init() throws {
        sandbox = try Sandbox()
        files = sandbox.root.appendingPathComponent("json")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(#"{"port": 8080}"#.utf8).write(to: files.appendingPathComponent("app.json"))
    }

    @Test func typeAndOutputAreChosenApart() throws {
        try sandbox.startAgent(["--files", files.path])
        // --type json: a JSON value, human output.
        let array = try sandbox.jarvis("set", "files:app.json", "tags", #"["a","b"]"#, "--type", "json")
        #expect(array.status == 0, "\(array.stderr)")
        #expect(array.stdout.hasPrefix("set files:app.json tags = "), "\(array.stdout)")
        // Only the note that a new key was made: no note about the flags.
        #expect(array.stderr == "note: created the new key 'tags'\n", "\(array.stderr)")
        // --int with --json: an integer, and the answer as JSON (was refused as two types).
        let port = try sandbox.jarvis("set", "files:app.json", "port", "9090", "--int", "--json")
        #expect(port.status == 0, "\(port.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(port.stdout.utf8)) as? [String: Any]
        #expect(answer?["type"] as? String == "integer", "\(port.stdout)")
        #expect(answer?["value"] as? Int == 9090, "\(port.stdout)")
        // --type int is the same as --int.
        let named = try sandbox.jarvis("set", "files:app.json", "port", "9091", "--type", "int")
        #expect(named.status == 0 && named.stdout.contains("(integer, revision"), "\(named.stdout)\(named.stderr)")
        // The old spelling: --json alone still reads the value as JSON, and says what to write.
        let old = try sandbox.jarvis("set", "files:app.json", "flags", #"{"beta":true}"#, "--json")
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stderr.contains("--type json"), "\(old.stderr)")
        #expect(try sandbox.jarvis("get", "files:app.json", "/flags/beta").stdout == "true\n")
        // Two types, or a type that does not exist, are usage mistakes.
        let both = try sandbox.jarvis("set", "files:app.json", "port", "1", "--int", "--type", "real")
        #expect(both.status == 64, "\(both.stderr)")
        let unknown = try sandbox.jarvis("set", "files:app.json", "port", "1", "--type", "integer-ish")
        #expect(unknown.status == 64 && unknown.stderr.contains("--type needs"), "\(unknown.stderr)")
    }
}
