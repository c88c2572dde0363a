import Foundation
import Testing

/// Issue 10 point 8 through the real `jarvis-agent --demo` and `jarvis`: the demo hides the
/// suite `private_data`, which exists; `com.apple.jarvis-test` is a system domain the agent
/// does not serve, so it neither exists nor can be created. Every command must answer both
/// alike, apart from the name itself.
@Suite(.serialized) struct HiddenNamesEndToEndTests {
    @Test func aHiddenSuiteAnswersEveryCommandLikeOneThatCannotExist() throws {
        let sandbox = try Sandbox()
        try sandbox.startAgent(["--demo"])
        let commands: [[String]] = [
            ["get", "SUITE", "api_token"],
            ["get", "SUITE", "/api_token/x"],
            ["set", "SUITE", "api_token", "stolen"],
            ["set", "SUITE", "/api_token/x", "1"],
            ["rm", "SUITE", "api_token"],
            ["rm", "SUITE", "--match", "*"],
            ["rm", "SUITE", "--match", "*", "--dry-run"],
            ["reset", "SUITE", "api_token", "--json"],
            ["ls", "SUITE"],
            ["set", "SUITE", "api_token", "x", "--expect", "0000000000000000"],
        ]
        for command in commands {
            func run(_ suite: String) throws -> CommandResult {
                try sandbox.run(
                    try Binaries.url("jarvis"), command.map { $0 == "SUITE" ? "defaults:\(suite)" : $0 })
            }
            let hidden = try run("private_data")
            let missing = try run("com.apple.jarvis-test")
            #expect(hidden.status == missing.status, "\(command)")
            #expect(
                hidden.stdout.replacingOccurrences(of: "private_data", with: "NAME")
                    == missing.stdout.replacingOccurrences(of: "com.apple.jarvis-test", with: "NAME"), "\(command)")
            #expect(
                hidden.stderr.replacingOccurrences(of: "private_data", with: "NAME")
                    == missing.stderr.replacingOccurrences(of: "com.apple.jarvis-test", with: "NAME"), "\(command)")
        }
        let set = try sandbox.jarvis("set", "defaults:private_data", "api_token", "stolen")
        #expect(set.status != 0 && set.stderr.contains("cannot be created"), "\(set.stderr)")
        #expect(try !sandbox.jarvis("ls", "--json").stdout.contains("private_data"))
    }
}
