import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis export`: a snapshot document of the chosen items.
enum ExportCommand: Command {
    static let fansOut = true
    static let name = "export"
    static let summary = "write a lossless snapshot (JSON) of stored values"
    static let usage = """
        jarvis export [CONTAINER] [--scanner ID] [--key GLOB]
                             [--reveal] [--output FILE]

          Writes {"format":"jarvis-snapshot","version":1,…} to standard output (or
          FILE), with every item in the wire shape, so each type survives. Registered
          defaults are not exported; masked secrets are left out unless --reveal is
          given and the agent allows it.

          CONTAINER       a container name or glob, optionally SCANNER:CONTAINER
          --key GLOB      only keys matching this glob
          --reveal        include secrets' values, where the agent allows it
          --output FILE   write to FILE instead of standard output; with --agents, a
                          folder that gets one IDENTITY.json per agent
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        var scanner = arguments.option("--scanner")
        let key = arguments.option("--key")
        let reveal = arguments.flag("--reveal")
        let output = arguments.option("--output")
        try arguments.finish(maxPositionals: 1, command: name)
        if let fleet = try context.fleet() {
            guard let output else {
                throw UsageError("with --agents, export needs --output FOLDER: one snapshot per agent is written there", command: name)
            }
            let (typedScanner, positional) = (scanner, arguments.positionals.first)
            try FleetReads.export(
                fleet, folder: output, reveal: reveal,
                filters: { agent in try agent.filters(container: positional, scanner: typedScanner) }, key: key,
                context: context)
        }
        let client = try context.connect()
        let container: String?
        (scanner, container) = try context.filters(container: arguments.positionals.first, scanner: scanner)
        let (snapshot, leftOut) = try client.snapshot(scanner: scanner, container: container, key: key, reveal: reveal)
        let bytes = Data(snapshot.text.utf8)
        if let output {
            // Revealed secrets are owner-only from the first byte; a new file always starts 0600.
            try PrivatePath.replaceFile(output, with: Array(bytes), mode: reveal ? 0o600 : nil)
            Terminal.err("exported \(snapshot.items.count) item(s) to \(output)")
        } else {
            FileHandle.standardOutput.write(bytes)
        }
        if !leftOut.isEmpty {
            Terminal.err(
                "left out \(leftOut.count) masked secret(s)"
                    + (reveal
                        ? " the agent would not reveal" : "; add --reveal to include them where the agent allows it"))
        }
    }
}
