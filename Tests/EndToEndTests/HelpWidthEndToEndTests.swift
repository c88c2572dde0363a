import Foundation
import Testing

/// Every help text the executables print fits an 80-column terminal: `jarvis`'s overview, each
/// command's `--help` and `jarvis help COMMAND`, the synopsis a usage error repeats, and the
/// help of `jarvis-agent` and `jarvis-bench`.
@Suite struct HelpWidthEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    /// The widest line a help text may have, in characters (not bytes: `→` and `…` are one).
    private static let columns = 80

    /// The lines of `text` wider than 80 columns, each with its width.
    private func wideLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { $0.count > Self.columns }
            .map { line in "\(line.count): " + line }
    }

    /// The command names the overview lists: its `Commands:` lines that start with two spaces
    /// and a word (a summary's continuation starts with more spaces).
    private func listedCommands(_ overview: String) -> [String] {
        let lines = overview.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func everyJarvisHelpFitsEightyColumns() throws {
        let overview = try sandbox.jarvis("--help")
        #expect(overview.status == 0)
        #expect(wideLines(overview.stdout).isEmpty, "jarvis --help: \(wideLines(overview.stdout))")
        let commands = listedCommands(overview.stdout)
        for known in ["agents", "ls", "get", "set", "rm", "watch", "inspect", "mcp", "web", "help"] {
            #expect(commands.contains(known), "the overview lists no \(known): \(overview.stdout)")
        }
        for command in commands {
            for arguments in [[command, "--help"], ["help", command]] {
                let help = try sandbox.run(Binaries.url("jarvis"), arguments)
                #expect(help.status == 0, "\(arguments): \(help.stderr)")
                #expect(help.stdout.hasPrefix("Usage: jarvis \(command)"), "\(arguments): \(help.stdout)")
                #expect(wideLines(help.stdout).isEmpty, "jarvis \(arguments): \(wideLines(help.stdout))")
            }
            // A usage error repeats the whole synopsis, wrapped as the help wraps it.
            let error = try sandbox.run(Binaries.url("jarvis"), [command, "--no-such-option"])
            #expect(error.status == 64, "\(command): \(error.stderr)")
            let synopsis = error.stderr.components(separatedBy: "\nUsage: ").dropFirst().joined()
            #expect(!synopsis.isEmpty, "\(command): \(error.stderr)")
            #expect(wideLines("Usage: " + synopsis).isEmpty, "\(command): \(wideLines("Usage: " + synopsis))")
        }
    }

    @Test func agentAndBenchHelpFitEightyColumns() throws {
        for tool in ["jarvis-agent", "jarvis-bench"] {
            let help = try sandbox.run(try Binaries.url(tool), ["--help"])
            #expect(help.status == 0, "\(tool): \(help.stderr)")
            #expect(help.stdout.contains("Usage: "), "\(tool): \(help.stdout)")
            #expect(wideLines(help.stdout).isEmpty, "\(tool) --help: \(wideLines(help.stdout))")
        }
    }
}
