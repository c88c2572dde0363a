// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import JarvisCommandLine

    /// The command line of `jarvis-bench`, read with the parser the three executables share.
    struct BenchOptions {
        /// Every benchmark, in the order they run and print.
        static let all = [
            "scan", "roundtrip", "list", "paging", "watch", "host", "load", "watchscope", "web", "stuck", "inspect",
            "plist", "panel",
        ]

        var selected: [String] = BenchOptions.all
        var json = false
        var quick = false
        /// How long the host-cost benchmark watches an idle agent's CPU time, per phase.
        var idleSeconds: Double?
        /// Overrides how many times each figure is measured.
        var runs: Int?
        /// Set in the hidden child modes, with their argument.
        var hostProbe: String?
        var defaultsHost: String?

        static let usage = """
            jarvis-bench: measure Jarvis beside the limits it promises, on this machine.

            Usage: swift run -c release jarvis-bench [--only LIST] [--quick] [--json]
                                                     [--runs N] [--idle SECONDS]

              --only LIST      run only these benchmarks, comma separated:
                               \(all.prefix(6).joined(separator: ",")),
                               \(all.dropFirst(6).joined(separator: ","))
                               (roundtrip runs paging too)
              --quick          a smoke run: small sizes, few runs (figures are not
                               meaningful)
              --json           print one JSON document instead of the table
              --runs N         measure each figure N times (default 5, 2 with --quick)
              --idle SECONDS   how long the host benchmark watches an idle agent (default
                               10, 1 with --quick)
              -h, --help       this help

            Every figure is the median of several runs with their min and max; every ratio
            compares two things measured in the same run on the same machine.
            """

        /// Options that take a value; everything else starting with `--` is a flag.
        static let valued: Set<String> = ["--only", "--runs", "--idle", "--host-probe", "--defaults-host"]

        /// The tool as its usage errors and `--help` name it.
        static let tool = CommandLineTool(name: "jarvis-bench", usage: usage)

        /// Reads the options; `--help` and usage errors end the program (status 0 and 64).
        static func parse(_ raw: [String]) -> BenchOptions {
            tool.parse(raw, valued: valued) { (arguments: inout CommandLineArguments) throws(UsageError) in
                try BenchOptions(&arguments)
            }
        }

        init(_ arguments: inout CommandLineArguments) throws(UsageError) {
            if let list = arguments.option("--only") {
                let names = list.split(separator: ",").map(String.init)
                for name in names where !Self.all.contains(name) {
                    throw UsageError("unknown benchmark '\(name)'; choose among \(Self.all.joined(separator: ","))")
                }
                // Round trips and paging are read together (issue 18): one brings the other.
                selected = Self.all.filter { names.contains($0) || ($0 == "paging" && names.contains("roundtrip")) }
            }
            quick = arguments.flag("--quick")
            json = arguments.flag("--json")
            runs = try arguments.option("--runs", expecting: "a positive whole number", CommandLineArguments.positive)
            idleSeconds = try arguments.option("--idle", expecting: "a positive number of seconds") { text in
                Double(text).flatMap { $0 > 0 ? $0 : nil }
            }
            hostProbe = arguments.option("--host-probe")
            defaultsHost = arguments.option("--defaults-host")
        }

        /// How many times each figure is measured.
        var runCount: Int { runs ?? (quick ? 2 : 5) }

        /// Scales a full-size count down for `--quick`.
        func size(_ full: Int, quick small: Int) -> Int { quick ? small : full }
    }
#endif
