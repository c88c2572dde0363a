import Foundation

/// What every Jarvis executable does with its command line: `--help` prints the usage and
/// exits 0; a usage error prints `TOOL: MESSAGE` and a hint on standard error and exits 64.
package struct CommandLineTool: Sendable {
    /// The program's name, as the user typed it (`jarvis-agent`).
    package var name: String
    /// The full usage text `--help` prints.
    package var usage: String

    /// A tool named `name` whose `--help` prints `usage`.
    package init(name: String, usage: String) {
        self.name = name
        self.usage = usage
    }

    /// Parses `raw`, printing the usage and exiting on `--help`, and failing with the hint on
    /// a usage error; `body` reads the options it knows from the parsed arguments.
    package func parse<T>(
        _ raw: [String], valued: Set<String>, _ body: (inout CommandLineArguments) throws(UsageError) -> T
    ) -> T {
        do {
            var arguments = try CommandLineArguments(raw, valued: valued)
            if arguments.flag("--help") {
                write(usage + "\n", to: STDOUT_FILENO)
                exit(0)
            }
            let value = try body(&arguments)
            try arguments.finish(maxPositionals: 0, command: name)
            return value
        } catch {
            fail(error)
        }
    }

    /// Prints a usage error with the hint and exits with status 64.
    package func fail(_ error: UsageError) -> Never {
        write("\(name): \(error.message)\nRun `\(name) --help` for usage.\n", to: STDERR_FILENO)
        exit(UsageError.exitStatus)
    }

    private func write(_ text: String, to descriptor: Int32) {
        let handle = descriptor == STDOUT_FILENO ? FileHandle.standardOutput : FileHandle.standardError
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
