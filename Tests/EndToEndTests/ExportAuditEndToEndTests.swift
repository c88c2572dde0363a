import Foundation
import JarvisCore
import Testing

/// Issue 27 item 7 on the real `jarvis-agent` and `jarvis`: an export leaves secrets out
/// unless it asks for them; one that asks needs the agent's reveal consent and is in the
/// audit trail as one `export` record (who, when, how many secrets) beside each `reveal`,
/// written by the agent whether the client reads the answer or not.
@Suite struct ExportAuditEndToEndTests {
    func folders(_ sandbox: Sandbox) throws -> (files: URL, vault: URL) {
        let files = sandbox.root.appendingPathComponent("files")
        let vault = sandbox.root.appendingPathComponent("vault")
        for folder in [files, vault] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data(#"{"theme":"dark"}"#.utf8).write(to: files.appendingPathComponent("prefs.json"))
        try Data("s3cret-a".utf8).write(to: vault.appendingPathComponent("token_a"))
        try Data("s3cret-b".utf8).write(to: vault.appendingPathComponent("token_b"))
        return (files, vault)
    }

    func exports(_ sandbox: Sandbox) throws -> [JSONValue] {
        let history = try sandbox.jarvis("history", "--json", "--action", "export")
        #expect(history.status == 0, "\(history.stderr)")
        return try JSONParser.parse(Data(history.stdout.utf8))["records"]?.arrayValue ?? []
    }

    @Test func anExportOfSecretsIsRecordedOnceWithItsCount() throws {
        let sandbox = try Sandbox()
        let (files, vault) = try folders(sandbox)
        _ = try AgentProcess(sandbox, ["--files", files.path, "--secrets-dir", vault.path, "--allow-reveal"])

        // Without --reveal the secrets stay out, and nothing was revealed to record.
        let plain = sandbox.root.appendingPathComponent("plain.json")
        let leftOut = try sandbox.jarvis("export", "--output", plain.path)
        #expect(leftOut.status == 0, "\(leftOut.stderr)")
        #expect(!(try String(contentsOf: plain, encoding: .utf8)).contains("s3cret"))
        #expect(leftOut.stderr.contains("left out 2 masked secret(s)"), "\(leftOut.stderr)")
        #expect(try exports(sandbox).isEmpty)

        // With --reveal: the values, one export record with its count, and a reveal per secret.
        let full = sandbox.root.appendingPathComponent("full.json")
        let revealing = try sandbox.jarvis("export", "--reveal", "--output", full.path)
        #expect(revealing.status == 0, "\(revealing.stderr)")
        let text = try String(contentsOf: full, encoding: .utf8)
        #expect(text.contains("s3cret-a") && text.contains("s3cret-b"))
        let records = try exports(sandbox)
        #expect(records.count == 1, "\(records)")
        let record = try #require(records.first)
        #expect(record["count"]?.int64Value == 2)
        #expect(record["client"]?.stringValue == "jarvis-cli")
        #expect(record["scanner"]?.stringValue == "*" && record["container"]?.stringValue == "*")
        let reveals = try sandbox.jarvis("history", "--json", "--action", "reveal")
        #expect(try JSONParser.parse(Data(reveals.stdout.utf8))["records"]?.arrayValue?.count == 2)
        let lines = try sandbox.jarvis("history", "--action", "export")
        #expect(lines.stdout.contains("export") && lines.stdout.contains("2 secret(s) sent in clear"), "\(lines.stdout)")
        #expect(lines.stdout.contains("by jarvis-cli"), "\(lines.stdout)")
    }

    @Test func anExportTheClientStopsReadingIsRecordedForWhatItWasSent() throws {
        let sandbox = try Sandbox()
        let (files, vault) = try folders(sandbox)
        // More than the socket's buffers hold, so the answer stalls while the client does not read.
        let value = Data(String(repeating: "x", count: 1024).utf8)
        for index in 0..<1200 { try value.write(to: vault.appendingPathComponent("bulk_\(index)")) }
        let agent = try AgentProcess(sandbox, ["--files", files.path, "--secrets-dir", vault.path, "--allow-reveal"])
        let socket = try agent.socket()
        socket.send(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"grabber"}}"# + "\n")
        var reader = LineReader(socket)
        #expect(try reader.nextJSON()?.errorCode == nil)
        socket.send(
            #"{"jsonrpc":"2.0","id":2,"method":"list","params":{"scanner":"secrets","reveal":true,"export":true}}"#
                + "\n")
        func records(_ action: String) throws -> [JSONValue] {
            let history = try sandbox.jarvis("history", "--json", "--limit", "1000", "--action", action)
            return (try JSONParser.parse(Data(history.stdout.utf8))["records"]?.arrayValue ?? [])
                .filter { $0["client"]?.stringValue == "grabber" }
        }
        func eventually(_ what: String, _ condition: () throws -> Bool) throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while try !condition() {
                guard ContinuousClock.now < deadline else { throw HarnessError("timed out waiting for \(what)") }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        // Some secrets went out before the answer stalled; the export is not over yet.
        try eventually("the first reveals") { try !records("reveal").isEmpty }
        #expect(try records("export").isEmpty)
        socket.close()
        try eventually("the export's record") { try !records("export").isEmpty }
        let export = try #require(try records("export").first)
        let sent = try records("reveal").count
        #expect(export["count"]?.int64Value == Int64(sent))
        #expect(sent < 1202, "the answer stalled before its end")
        #expect(export["scanner"]?.stringValue == "secrets" && export["container"]?.stringValue == "*")
    }

    @Test func anAgentThatRevealsNothingRefusesAnExportOfSecrets() throws {
        let sandbox = try Sandbox()
        let (files, vault) = try folders(sandbox)
        _ = try AgentProcess(sandbox, ["--files", files.path, "--secrets-dir", vault.path])
        let output = sandbox.root.appendingPathComponent("full.json")
        let refused = try sandbox.jarvis("export", "--reveal", "--output", output.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("reveal"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try exports(sandbox).isEmpty)
    }
}
