import Testing

@testable import jarvis

/// `jarvis mcp --help` names every protocol revision the server speaks.
@Suite struct MCPHelpTests {
    @Test func theHelpNamesEveryRevisionTheServerOffers() {
        let help = MCPCommand.usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for revision in MCPServer.supportedVersions + MCPServer.modernVersions {
            #expect(help.contains(revision), "jarvis mcp --help does not name revision \(revision)")
        }
    }
}
