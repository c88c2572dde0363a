import Foundation
import JarvisCommandLine
import JarvisCore

// Writing to an agent that went away must give an error, not kill the CLI.
signal(SIGPIPE, SIG_IGN)

var arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    CommandLineTool(name: "jarvis", usage: HelpCommand.overview).fail(error)
}

guard let word = arguments.popCommand() else {
    if arguments.flag("--version") {
        Terminal.out("jarvis \(ProtocolInfo.toolVersion)")
        exit(0)
    }
    Terminal.out(HelpCommand.overview)
    exit(arguments.flag("--help") ? 0 : 64)
}

if word == DemoCommand.serveWord {
    do {
        try DemoCommand.serve()
    } catch {
        Terminal.err("jarvis: the demo agent failed: \(error)")
        exit(1)
    }
}

guard let command = commands.first(where: { $0.name == word }) else {
    let suggestion = Suggestion.phrase(for: word, among: commands.map { $0.name })
    Terminal.err(
        "jarvis: unknown command '\(Terminal.escaped(word))'" + (suggestion.isEmpty ? "" : "." + suggestion)
            + "\nRun `jarvis help` to see the commands.")
    exit(64)
}

if arguments.flag("--help") {
    Terminal.out("Usage: " + command.usage + "\n\n" + globalOptions)
    exit(0)
}

do {
    let context = try Context(arguments: &arguments)
    if command == MCPCommand.self, context.agents != nil {
        throw UsageError(
            "jarvis mcp serves one agent per server, so it takes no --agents (nor JARVIS_AGENTS): choose one with --agent NAME|PID, or start one server per agent"
        )
    }
    if context.agentsTyped, !command.fansOut {
        throw UsageError(
            "--agents works with \(fanOutCommandNames); `jarvis \(command.name)` acts on one agent (--agent)")
    }
    try command.run(&arguments, context: context)
    exit(0)
} catch let error as UsageError {
    // The synopsis: the usage's first line and the indented lines that continue it.
    let usageLines = command.usage.split(separator: "\n", omittingEmptySubsequences: false)
    let synopsis = usageLines.prefix(1) + usageLines.dropFirst().prefix { $0.hasPrefix(" ") }
    Terminal.err(
        "jarvis \(command.name): \(Terminal.escapedLines(error.message))\nUsage: \(synopsis.joined(separator: "\n"))"
    )
    exit(64)
} catch let error as JarvisError {
    Terminal.err("jarvis: \(Terminal.escapedLines(ValueText.forCommandLine(error.message)))")
    exit(1)
} catch {
    Terminal.err("jarvis: \(Terminal.escapedLines(String(describing: error)))")
    exit(1)
}
