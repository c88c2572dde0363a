import Foundation
import JarvisCore
import Testing

/// `jarvis ls` and `jarvis mcp`'s `resources/list` show the same containers, an empty suite
/// included, on the real binaries.
@Suite struct ContainerListingEndToEndTests {
    @Test func lsAndMCPResourcesListTheSameContainersAnEmptySuiteIncluded() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.full", in: folder, ["a": 1])
        try sandbox.writeSuite("com.example.empty", in: folder, [:])
        _ = try AgentProcess(sandbox, ["--defaults-dir", folder.path])

        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        let headers = Set(lines.filter { $0.hasPrefix("defaults:") })
        #expect(headers == ["defaults:com.example.full", "defaults:com.example.empty"], "\(listing.stdout)")
        let empty = lines.firstIndex(of: "defaults:com.example.empty").map { lines[$0 + 1] }
        #expect(empty == "  (no keys)", "\(listing.stdout)")
        // A key filter asks about keys: the empty suite has none to show.
        let filtered = try sandbox.jarvis("ls", "--key", "a")
        #expect(!filtered.stdout.contains("com.example.empty"), "\(filtered.stdout)")

        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
        ]
        let answers = try sandbox.mcpSession(bytes: Array((requests.joined(separator: "\n") + "\n").utf8))
        let list = try #require(answers.first { $0["id"] == 2 })
        let names = Set((list["result"]?["resources"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        #expect(names == headers, "\(list)")
    }
}
