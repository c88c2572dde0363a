/// `jarvis help [COMMAND]`.
enum HelpCommand: Command {
    static let name = "help"
    static let summary = "show help for jarvis or one command"
    static let usage = "jarvis help [COMMAND]"

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try arguments.finish(maxPositionals: 1, command: name)
        if let wanted = arguments.positionals.first {
            guard let command = commands.first(where: { $0.name == wanted }) else {
                throw UsageError("unknown command '\(wanted)'")
            }
            Terminal.out("Usage: " + command.usage + "\n\n" + globalOptions)
            return
        }
        Terminal.out(overview)
    }

    static var overview: String {
        let width = commands.map { $0.name.count }.max() ?? 8
        // A summary's own line breaks continue under the summary column.
        let hang = "\n" + String(repeating: " ", count: width + 5)
        let lines = commands.map {
            "  " + Terminal.pad($0.name, width + 3) + $0.summary.replacingOccurrences(of: "\n", with: hang)
        }.joined(separator: "\n")
        return """
            jarvis: inspect and edit the preferences of a running program.

            Usage: jarvis COMMAND [ARGUMENTS] [OPTIONS]

            Commands:
            \(lines)

            \(globalOptions)

            Start with `jarvis demo`, or `jarvis agents` to see what runs.
            """
    }
}
