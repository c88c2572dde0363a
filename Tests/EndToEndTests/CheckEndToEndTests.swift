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
        #expect(clean.stdout.contains("nothing found"))
    }
}
