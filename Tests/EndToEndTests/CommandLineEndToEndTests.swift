import Foundation
import Testing

/// The three executables share one parser: `--help` everywhere, usage errors with status 64
/// and a hint, and the existing flags unchanged.
@Suite struct CommandLineEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    private let commands = [
        "agents", "ls", "get", "set", "rm", "reset", "watch", "history", "undo", "redo", "inspect", "export", "import", "diff", "demo",
        "help",
    ]

    @Test func everyJarvisCommandHasHelp() throws {
        for command in commands {
            for spelling in ["--help", "-h"] {
                let result = try sandbox.jarvis(command, spelling)
                #expect(result.status == 0, "\(command) \(spelling): \(result.stderr)")
                #expect(result.stdout.hasPrefix("Usage: jarvis \(command)"), "\(command): \(result.stdout)")
                #expect(result.stdout.contains("--agent NAME|PID|PATH"))
            }
        }
        let overview = try sandbox.jarvis("--help")
        #expect(overview.status == 0)
        #expect(overview.stdout.contains("Commands:"))
    }

    @Test func jarvisUsageErrorsExit64WithAHint() throws {
        let cases: [([String], String)] = [
            (["ls", "--bogus"], "ls has no option --bogus"),
            (["get", "a", "b", "c"], "unexpected argument 'c'"),
            (["ls", "--scanner"], "--scanner needs a value"),
            (["ls", "--reveal=yes"], "--reveal takes no value"),
            (["history", "--limit", "0"], "--limit needs a positive number"),
            (["watch", "--since", "-1"], "--since needs a sequence number"),
        ]
        for (arguments, message) in cases {
            let result = try sandbox.run(try Binaries.url("jarvis"), arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Usage:") || result.stderr.contains("--help"), "\(result.stderr)")
        }
    }

    @Test func agentHelpAndUsageErrors() throws {
        let agent = try Binaries.url("jarvis-agent")
        for spelling in ["--help", "-h"] {
            let help = try sandbox.run(agent, [spelling])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Usage: jarvis-agent"))
        }
        let cases: [([String], String)] = [
            (["--bogus"], "jarvis-agent has no option --bogus"),
            (["stray"], "unexpected argument 'stray'"),
            (["--max-connections", "0"], "--max-connections needs a positive number"),
            (["--idle-timeout", "-3"], "--idle-timeout needs seconds, 0 for never"),
            (["--listen", "nowhere:port"], "--listen nowhere:port"),
            (["--name"], "--name needs a value"),
        ]
        for (arguments, message) in cases {
            let result = try sandbox.run(agent, arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("jarvis-agent: " + message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Run `jarvis-agent --help` for usage."))
        }
    }

    @Test func benchHelpAndUsageErrors() throws {
        let bench = try Binaries.url("jarvis-bench")
        let help = try sandbox.run(bench, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: swift run -c release jarvis-bench"))
        let cases: [([String], String)] = [
            (["--runs", "0"], "--runs needs a positive whole number"),
            (["--idle", "x"], "--idle needs a positive number of seconds"),
            (["--only", "nothing"], "unknown benchmark 'nothing'"),
            (["--frobnicate"], "jarvis-bench has no option --frobnicate"),
        ]
        for (arguments, message) in cases {
            let result = try sandbox.run(bench, arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Run `jarvis-bench --help` for usage."))
        }
    }
}
