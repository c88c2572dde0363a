import Testing

@testable import JarvisCommandLine

@Suite struct CommandLineArgumentsTests {
    private let valued: Set<String> = ["--agent", "--dir", "--runs"]

    @Test func splitsFlagsOptionsAndPositionals() throws {
        var arguments = try CommandLineArguments(
            ["ls", "--agent", "demo", "--json", "com.example.*", "--dir=/a", "--dir", "/b"], valued: valued)
        let command = arguments.popCommand()
        let agent = arguments.option("--agent")
        let (json, reveal) = (arguments.flag("--json"), arguments.flag("--reveal"))
        let folders = arguments.values("--dir")
        #expect(command == "ls")
        #expect(agent == "demo")
        #expect(json && !reveal)
        #expect(folders == ["/a", "/b"])
        #expect(arguments.positionals == ["com.example.*"])
        try arguments.finish(maxPositionals: 1, command: "ls")
    }

    @Test func negativeNumbersDashAndDoubleDashArePositionals() throws {
        let arguments = try CommandLineArguments(["-5", "-0.5", "-", "--", "--json"], valued: valued)
        #expect(arguments.positionals == ["-5", "-0.5", "-", "--json"])
    }

    @Test func shortHelpIsHelp() throws {
        var arguments = try CommandLineArguments(["-h"], valued: valued)
        let help = arguments.flag("--help")
        #expect(help)
    }

    @Test func refusesWhatNobodyAskedAbout() throws {
        var unknown = try CommandLineArguments(["--bogus"], valued: valued)
        _ = unknown.flag("--json")
        #expect(throws: UsageError("tool has no option --bogus", command: "tool")) {
            try unknown.finish(maxPositionals: 0, command: "tool")
        }
        let extra = try CommandLineArguments(["a", "b"], valued: valued)
        #expect(throws: UsageError("unexpected argument 'b'", command: "tool")) {
            try extra.finish(maxPositionals: 1, command: "tool")
        }
    }

    @Test func optionsNeedTheirValuesAndFlagsTakeNone() {
        #expect(throws: UsageError("--agent needs a value")) { try CommandLineArguments(["--agent"], valued: valued) }
        #expect(throws: UsageError("--json takes no value")) { try CommandLineArguments(["--json=1"], valued: valued) }
    }

    @Test func typedOptionsSayWhatTheyNeed() throws {
        var good = try CommandLineArguments(["--runs", "3"], valued: valued)
        let runs = try good.option("--runs", expecting: "a positive whole number", CommandLineArguments.positive)
        #expect(runs == 3)
        var bad = try CommandLineArguments(["--runs", "0"], valued: valued)
        #expect(throws: UsageError("--runs needs a positive whole number")) {
            _ = try bad.option("--runs", expecting: "a positive whole number", CommandLineArguments.positive)
        }
        var absent = try CommandLineArguments([], valued: valued)
        let none = try absent.option("--runs", expecting: "x", CommandLineArguments.nonNegative)
        #expect(none == nil)
    }
}
