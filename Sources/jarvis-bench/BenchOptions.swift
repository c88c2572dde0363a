/// The command line of `jarvis-bench`, parsed by hand (the package takes no dependencies).
struct BenchOptions {
    /// Every benchmark, in the order they run and print.
    static let all = ["scan", "roundtrip", "list", "watch", "host", "load", "watchscope"]

    var selected: [String] = BenchOptions.all
    var json = false
    var quick = false
    var help = false
    /// How long the host-cost benchmark watches an idle agent's CPU time, per phase.
    var idleSeconds: Double?
    /// Overrides how many times each figure is measured.
    var runs: Int?
    /// Set in the hidden child modes, with their argument.
    var hostProbe: String?
    var defaultsHost: String?

    static let usage = """
        jarvis-bench: measure Jarvis beside the limits it promises, on this machine.

        Usage: swift run -c release jarvis-bench [--only LIST] [--quick] [--json] [--runs N] [--idle SECONDS]

          --only LIST      run only these benchmarks, comma separated: \(all.joined(separator: ","))
          --quick          a smoke run: small sizes, few runs (figures are not meaningful)
          --json           print one JSON document instead of the table
          --runs N         measure each figure N times (default 5, 2 with --quick)
          --idle SECONDS   how long the host benchmark watches an idle agent (default 10, 1 with --quick)
          -h, --help       this help

        Every figure is the median of several runs with their min and max; every ratio
        compares two things measured in the same run on the same machine.
        """

    init(_ arguments: [String]) throws(BenchUsageError) {
        var index = 0
        func value(for option: String) throws(BenchUsageError) -> String {
            guard index < arguments.count else { throw BenchUsageError("\(option) needs a value") }
            defer { index += 1 }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--only":
                let names = try value(for: argument).split(separator: ",").map(String.init)
                for name in names where !Self.all.contains(name) {
                    throw BenchUsageError(
                        "unknown benchmark '\(name)'; choose among \(Self.all.joined(separator: ","))")
                }
                selected = Self.all.filter(names.contains)
            case "--quick": quick = true
            case "--json": json = true
            case "--runs":
                guard let runs = Int(try value(for: argument)), runs > 0 else {
                    throw BenchUsageError("--runs needs a positive whole number")
                }
                self.runs = runs
            case "--idle":
                guard let seconds = Double(try value(for: argument)), seconds > 0 else {
                    throw BenchUsageError("--idle needs a positive number of seconds")
                }
                idleSeconds = seconds
            case "--host-probe": hostProbe = try value(for: argument)
            case "--defaults-host": defaultsHost = try value(for: argument)
            case "-h", "--help": help = true
            default: throw BenchUsageError("unknown argument '\(argument)'")
            }
        }
    }

    /// How many times each figure is measured.
    var runCount: Int { runs ?? (quick ? 2 : 5) }

    /// Scales a full-size count down for `--quick`.
    func size(_ full: Int, quick small: Int) -> Int { quick ? small : full }
}

/// A mistake in how `jarvis-bench` was started.
struct BenchUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
