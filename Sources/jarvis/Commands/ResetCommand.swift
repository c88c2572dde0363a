import JarvisCore
import JarvisRemote

/// `jarvis reset`: remove a stored value so the default applies again.
enum ResetCommand: Command {
    static let name = "reset"
    static let summary = "remove a stored value so its default applies again"
    static let usage = """
        jarvis reset CONTAINER KEY [--expect REVISION]

          Removes what is stored for KEY; the default declared by the host (its key
          catalog or a registered default) applies again. Resetting a key with nothing
          stored is not an error.
          --expect REVISION   reset only if the value still has this revision
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let expected = arguments.option("--expect")
        try arguments.finish(maxPositionals: 2, command: name)
        guard arguments.positionals.count == 2 else { throw UsageError("reset needs CONTAINER and KEY", command: name) }
        let client = try context.connect()
        let place = try context.keyPlace(container: arguments.positionals[0], key: arguments.positionals[1])
        let result = try context.suggesting(client, place) { () throws(JarvisError) in
            try client.reset(place, expectedRevision: expected.map(Revision.init))
        }
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(result.json) + [0x0A])
            return
        }
        let (removed, current) = (result.removed, result.item)
        let typed = Terminal.escaped(arguments.positionals[0] + " " + arguments.positionals[1])
        var line =
            removed.map { "reset \(Context.place($0)) (was \(ValueText.preview($0, limit: 40)))" }
            ?? "\(typed): nothing was stored"
        if let current {
            if let value = current.value {
                line +=
                    "; now \(ValueText.full(value).prefix(60))"
                    + (current.layer == .registered ? " (registered default)" : "")
            } else if let value = current.catalog?.defaultValue {
                line += "; now unset, default \(ValueText.short(value, limit: 60))"
            } else {
                line += "; now unset"
            }
        }
        Terminal.out(removed == nil ? line : line + " (jarvis undo)")
    }
}
