import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// `jarvis set`: store a value with the type a flag chooses.
enum SetCommand: Command {
    static let name = "set"
    static let summary = "store a value (--string --int --real --bool --date --data, or --type json)"
    static let usage = """
        jarvis set CONTAINER KEY VALUE [TYPE] [--expect REVISION] [--new]

          KEY is a key, or a JSON Pointer starting with the key (/profile/tags/0, /tags/- appends):
          only that place changes, everything around it keeps its value and type.

          TYPE is one of (default --string), or --type NAME with the name after the dashes:
            --string  text            --int   a whole number     --real  a number
            --bool    true or false   --date  ISO 8601 (2024-01-15T10:00:00Z)
            --data    base64          --type json  JSON for arrays and dictionaries, in the wire encoding
          --expect REVISION   write only if the value still has this revision (see `get --json`)
          --json              print what was stored as JSON (as `get --json`). Given with no
                              type, it also reads the value as JSON, as it did before --type.

        Examples:
          jarvis set com.example.demo.prefs launch_count 5 --int
          jarvis set com.example.demo.prefs tags '["a","b"]' --type json
          jarvis set com.example.demo.prefs /profile/tags/0 swift
          jarvis set files:app.json /server/port 9090 --int

          A key that does not exist yet is created, with a note. In a container whose keys
          the host's key catalog declares, a key it does not declare needs --new: it is
          most likely a typo, and jarvis names the nearest key.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let chosen = ValueText.typeFlags.filter { $0.flag != "--json" && arguments.flag($0.flag) }.map(\.type)
        let named = try arguments.option("--type", expecting: ValueText.typeNames) { ValueText.type(named: $0) }
        let expected = arguments.option("--expect")
        let new = arguments.flag("--new")
        try arguments.finish(maxPositionals: 3, command: name)
        guard arguments.positionals.count == 3 else {
            throw UsageError("set needs CONTAINER, KEY and VALUE", command: name)
        }
        var types = chosen + (named.map { [$0] } ?? [])
        guard types.count <= 1 else {
            throw UsageError("give at most one type (a type flag or --type)", command: name)
        }
        // `--json` is the global output flag. Before `--type json` existed, `set … --json` was
        // how a JSON value was written, so with no type given it still means that too.
        if types.isEmpty, context.json {
            types = [nil]
            Terminal.err(
                Terminal.yellow("note: ")
                    + "reading the value as JSON because of --json; write `--type json` for the value's type (--json alone will only choose the output format in a later release)"
            )
        }
        let type: PreferenceType? = types.first ?? .string
        // Text the chosen type cannot hold is a mistake on the command line (status 64).
        let value: PreferenceValue
        do {
            value = try ValueText.parse(arguments.positionals[2], as: type)
        } catch {
            throw UsageError(error.message, command: name)
        }
        let client = try context.connect()
        let place = try context.itemPlace(container: arguments.positionals[0], key: arguments.positionals[1])
        let created = try checkNewKey(place, client: client, context: context, allowed: new)
        let item = try context.suggesting(client, place) { () throws(JarvisError) in
            try client.set(place, to: value, expectedRevision: expected.map(Revision.init))
        }
        if created { Terminal.err(Terminal.yellow("note: ") + "created the new key '\(Terminal.escaped(place.key))'") }
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(WireItem.encode(item)) + [0x0A])
        } else {
            Terminal.out(
                "set \(Context.place(item)) = \(ValueText.preview(item, limit: 60)) (\(item.type), revision \(Terminal.escaped(item.revision.text)))"
            )
        }
        for note in item.notes { Terminal.err(Terminal.yellow("note: ") + note) }
    }

    /// Whether the set creates a key, and whether it may: in a container whose keys the host's
    /// catalog describes, a key it does not declare is most likely a typo, so it needs `--new`.
    /// - Throws: ``UsageError`` naming the nearest key when `--new` is missing.
    private static func checkNewKey(_ place: Wire.Place, client: JarvisClient, context: Context, allowed: Bool) throws
        -> Bool
    {
        guard place.pointer == nil else { return false }
        let existing: Result<PreferenceItem, JarvisError> = Result { () throws(JarvisError) in try client.get(place) }
        if case .failure(let error) = existing, error.code == .notFound {
            // A container that does not exist yet is created: nothing to compare with.
            let listing = try? client.listing(
                Wire.ListParams(scanner: place.scanner, container: Context.literalPattern(place.container)))
            let covered = listing?.items.contains { $0.catalog != nil } ?? false
            guard covered, !allowed else { return true }
            let nearest = Suggestion.phrase(for: place.key, among: context.keys(client, place))
            throw UsageError(
                "'\(place.key)' is not a key of \(place.container), whose keys the host's key catalog declares.\(nearest) Add --new to create it anyway.",
                command: name)
        }
        return false
    }
}
