import JarvisCore
import JarvisRemote

/// `jarvis set`: store a value with the type a flag chooses.
enum SetCommand: Command {
    static let name = "set"
    static let summary = "store a value (--string --int --real --bool --date --data --json)"
    static let usage = """
        jarvis set CONTAINER KEY VALUE [TYPE] [--expect REVISION]

          KEY is a key, or a JSON Pointer starting with the key (/profile/tags/0, /tags/- appends):
          only that place changes, everything around it keeps its value and type.

          TYPE is one of (default --string):
            --string  text            --int   a whole number     --real  a number
            --bool    true or false   --date  ISO 8601 (2024-01-15T10:00:00Z)
            --data    base64          --json  JSON for arrays and dictionaries, in the wire encoding
          --expect REVISION   write only if the value still has this revision (see `get --json`)

        Examples:
          jarvis set com.example.demo.prefs launch_count 5 --int
          jarvis set com.example.demo.prefs tags '["a","b"]' --json
          jarvis set com.example.demo.prefs /profile/tags/0 swift
          jarvis set files:app.json /server/port 9090 --int
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let chosen = ValueText.typeFlags.filter { $0.flag != "--json" && arguments.flag($0.flag) }
        let expected = arguments.option("--expect")
        // `--json` is also the global output flag; for set it can only mean the value's type.
        let jsonValue = context.json
        try arguments.finish(maxPositionals: 3, command: name)
        guard arguments.positionals.count == 3 else {
            throw UsageError("set needs CONTAINER, KEY and VALUE", command: name)
        }
        guard chosen.count + (jsonValue ? 1 : 0) <= 1 else {
            throw UsageError("give at most one type flag", command: name)
        }
        let type: PreferenceType? = jsonValue ? nil : (chosen.first?.type ?? .string)
        // Text the chosen type cannot hold is a mistake on the command line (status 64).
        let value: PreferenceValue
        do {
            value = try ValueText.parse(arguments.positionals[2], as: type)
        } catch {
            throw UsageError(error.message, command: name)
        }
        let client = try context.connect()
        let place = try context.itemPlace(container: arguments.positionals[0], key: arguments.positionals[1])
        let item = try client.set(place, to: value, expectedRevision: expected.map(Revision.init))
        Terminal.out(
            "set \(Context.place(item)) = \(ValueText.preview(item, limit: 60)) (\(item.type), revision \(Terminal.escaped(item.revision.text)))"
        )
        for note in item.notes { Terminal.err(Terminal.yellow("note: ") + note) }
    }
}
