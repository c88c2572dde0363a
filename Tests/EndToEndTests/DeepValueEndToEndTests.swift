import Foundation
import JarvisCore
import Testing

/// A value as deep as any scanner serves goes out with `jarvis get --json` and comes back
/// with `jarvis set` unchanged; one level deeper is neither served nor written.
@Suite(.serialized) struct DeepValueEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// `levels` dictionaries, each under a `$` key (so each level is wrapped on the wire, the
    /// deepest encoding there is), around a whole real (wrapped too).
    private func nested(_ levels: Int) -> String {
        String(repeating: #"{"$k":"#, count: levels) + "1.0" + String(repeating: "}", count: levels)
    }

    @Test func theDeepestServedValueRoundTripsThroughTheCLI() throws {
        let maximum = PreferenceValue.maxDepth
        try Data(#"{"deep":\#(nested(maximum)),"other":1}"#.utf8).write(to: folder.appendingPathComponent("deep.json"))
        try Data(#"{"deeper":\#(nested(maximum + 1))}"#.utf8).write(to: folder.appendingPathComponent("deeper.json"))
        try sandbox.startAgent(["--files", folder.path])

        let read = try sandbox.jarvis("get", "files:deep.json", "deep", "--json")
        #expect(read.status == 0, "\(read.stderr)")
        let item = try JSONParser.parse(Array(read.stdout.utf8), maxDepth: 1024)
        guard let wire = item["value"] else {
            Issue.record("no value in \(read.stdout.prefix(200))")
            return
        }
        let value = try PreferenceValue(json: wire)
        #expect(value.depth == maximum)
        let text = JSONWriter.string(wire)
        #expect(text.hasPrefix(#"{"$dictionary":{"$k":{"$dictionary":"#))

        let written = try sandbox.jarvis("set", "files:deep.json", "deep", text, "--json")
        #expect(written.status == 0, "\(written.stderr)")
        let again = try sandbox.jarvis("get", "files:deep.json", "deep", "--json")
        #expect(again.stdout == read.stdout, "the value and its revision are unchanged")
        let file = try JSONParser.parse(
            try Data(contentsOf: folder.appendingPathComponent("deep.json")), maxDepth: 1024)
        #expect(file["deep"] == (try JSONParser.parse(nested(maximum), maxDepth: 1024)))
        #expect(file["other"] == .number(JSONNumber(1)))

        // One level deeper is not served: the file is a problem, and such a value is refused.
        let listing = try sandbox.jarvis("ls", "files:deeper.json")
        #expect(listing.stdout.contains("deeper.json"))
        #expect(listing.stdout.contains("nesting is deeper"), "\(listing.stdout)")
        let plain = String(repeating: #"{"k":"#, count: maximum + 1) + "1" + String(repeating: "}", count: maximum + 1)
        let tooDeep = try sandbox.jarvis("set", "files:deep.json", "other", plain, "--json")
        #expect(tooDeep.status == 1)
        #expect(tooDeep.stderr.contains("at most \(maximum) levels"), "\(tooDeep.stderr)")
        // Placed one level down by a pointer, the deepest value would be one level too deep.
        let throughPointer = try sandbox.jarvis("set", "files:deep.json", "/deep/$k", text, "--json")
        #expect(throughPointer.status == 1)
        #expect(throughPointer.stderr.contains("would nest \(maximum + 1) levels"), "\(throughPointer.stderr)")
        #expect(try sandbox.jarvis("get", "files:deep.json", "deep", "--json").stdout == read.stdout)
    }
}
