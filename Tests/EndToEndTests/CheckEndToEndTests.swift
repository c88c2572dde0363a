import Foundation
import JarvisCore
import Testing

/// `jarvis check` on the real binaries, against the demo agent (whose host gives a key
/// catalog, and whose `app.json` stores `debug` with its catalog default): findings and exit
/// status 1, the same as JSON, and exit status 0 where nothing is found.
@Suite final class CheckEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    @Test func findingsExitOneAndACleanContainerExitsZero() throws {
        let agent = try AgentProcess(sandbox, ["--demo"])
        let found = try sandbox.jarvis("--agent", String(agent.pid), "check")
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("equalsDefault: app.json debug: stored with its default value"), "\(found.stdout)")
        #expect(found.stdout.hasSuffix(" found\n"))
        let json = try sandbox.jarvis("--agent", String(agent.pid), "check", "--json")
        #expect(json.status == 1)
        let findings = try JSONParser.parse(Data(json.stdout.utf8))["findings"]?.arrayValue ?? []
        #expect(
            findings.contains { $0["kind"]?.stringValue == "equalsDefault" && $0["key"]?.stringValue == "debug" },
            "\(json.stdout)")
        let clean = try sandbox.jarvis("--agent", String(agent.pid), "check", "no.such.container.*")
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("nothing found: every key is as the key catalog says"), "\(clean.stdout)")
    }

    /// An agent whose host gave no key catalog: nothing is claimed about a catalog.
    @Test func anAgentWithoutACatalogSaysOnlySizesWereChecked() throws {
        let folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"debug": true}"#.utf8).write(to: folder.appendingPathComponent("app.json"))
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let answer = try sandbox.jarvis("--agent", String(agent.pid), "check")
        #expect(answer.status == 0, "\(answer.stdout)\(answer.stderr)")
        #expect(answer.stdout == "nothing found: the host gave no key catalog, so only container sizes were checked\n")
        let json = try sandbox.jarvis("--agent", String(agent.pid), "check", "--json")
        #expect(json.stdout.contains(#""catalog":false"#), "\(json.stdout)")
    }
}
