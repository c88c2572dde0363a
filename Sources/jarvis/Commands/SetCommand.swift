import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// `jarvis set`: store a value, keeping the type it has unless a flag chooses another.
enum SetCommand: Command {
    static let fansOut = true
    static let name = "set"
    static let summary = "store a value, keeping its type unless a flag (--int, --string, …)\nasks"
    static let usage = """
        jarvis set CONTAINER KEY VALUE [TYPE] [--expect REVISION] [--new]

          KEY is a key, or a JSON Pointer starting with the key (/profile/tags/0,
          /tags/- appends): only that place changes, everything around it keeps its
          value and type.

          Without TYPE, VALUE is read as the type the value has (the stored one, else
          the key catalog's): 9090 stays a number, true a boolean; text that does not
          fit is refused with the flag that changes the type. A new key takes the type
          of a JSON number or boolean (9090, 2.5, true), else it is a string; a note
          says which.

          TYPE is one of, or --type NAME with the name after the dashes:
            --string  text            --int   a whole number     --real  a number
            --bool    true or false   --date  ISO 8601 (2024-01-15T10:00:00Z)
            --data    base64          --type json  JSON for arrays and dictionaries,
                                                   in the wire encoding
          --expect REVISION   write only if the value still has this revision (see
                              `get --json`)
          --new               create a key that looks like a typo (see below)
          --dry-run           with --agents: show each agent's current → new value,
                              write nothing
          --create            with --agents: create the key (or container) on an
                              agent where it is absent; without it, such an agent
                              is `not found` (absent, not created) and not written
          --json              print what was stored as JSON (as `get --json`). Given
                              with no type, it also reads the value as JSON, as it did
                              before --type.

        Examples:
          jarvis set files:service.json port 9090
          jarvis set com.example.demo.prefs tags '["a","b"]' --type json
          jarvis set com.example.demo.prefs /profile/tags/0 swift
          jarvis set com.example.demo.prefs build 42 --string

          A new key one or two letters from an existing one (or a member beside its
          siblings) is most likely a typo: jarvis names the nearest and writes nothing
          unless --new is given. So is any key the host's key catalog does not declare,
          in a container whose keys it declares.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let chosen = ValueText.typeFlags.filter { $0.flag != "--json" && arguments.flag($0.flag) }.map(\.type)
        let named = try arguments.option("--type", expecting: ValueText.typeNames) { ValueText.type(named: $0) }
        let expected = arguments.option("--expect")
        let new = arguments.flag("--new")
        let create = arguments.flag("--create")
        let dryRun = arguments.flag("--dry-run")
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
        let text = arguments.positionals[2]
        // Text the asked type cannot hold is a mistake on the command line (status 64), found
        // before anything is asked of the agent.
        var asked: PreferenceValue?
        if let type = types.first { asked = try usage { () throws(JarvisError) in try ValueText.parse(text, as: type) } }
        if let fleet = try context.fleet() {
            let request = FleetWrites.SetRequest(
                container: arguments.positionals[0], key: arguments.positionals[1], text: text, asked: asked,
                allowNew: new, create: create, expected: expected.map(Revision.init), dryRun: dryRun)
            FleetWrites.set(fleet, request, context: context)
        }
        guard !create else {
            throw UsageError(
                "--create goes with --agents; a single set creates a new key as it is (and a container where its scanner is named)",
                command: name)
        }
        guard !dryRun else { throw UsageError("--dry-run goes with --agents; one agent's write is shown by `jarvis get`", command: name) }
        let client = try context.connect()
        let place = try context.itemPlace(container: arguments.positionals[0], key: arguments.positionals[1])
        let target = try usage { () throws(JarvisError) in
            try SetTarget(place, client: client, allowNew: new, newHint: "Add --new to create it anyway.")
        }
        // Without a type, the text is read as the type the place has (a type changes only
        // when asked), or, for a new place, as the JSON literal it is.
        var reading: ValueReading?
        if asked == nil {
            reading = try usage { () throws(JarvisError) in
                try ValueReading(text, current: target.current, wireEncoding: true)
            }
        }
        // A type kept from what was read is guarded by the revision read, so a change of type
        // in between answers a conflict rather than being overwritten with the old type.
        let revision = expected.map(Revision.init) ?? (reading == nil ? nil : target.revision)
        let write = { (value: PreferenceValue) throws(JarvisError) -> PreferenceItem in
            try context.suggesting(client, place) { () throws(JarvisError) -> PreferenceItem in
                try client.set(place, to: value, expectedRevision: revision)
            }
        }
        let item: PreferenceItem
        var note: String?
        if let reading {
            let stored = try SetTarget.store(reading, write)
            item = stored.result
            note = stored.note
        } else {
            item = try write(asked ?? .string(text))
        }
        let typeNote = note.map { ValueText.forCommandLine($0) }
        if target.createsKey {
            Terminal.err(
                Terminal.yellow("note: ") + "created the new key '\(Terminal.escaped(place.key))'"
                    + (typeNote.map { ", \($0)" } ?? ""))
        } else if let typeNote {
            Terminal.err(Terminal.yellow("note: ") + "new member: " + typeNote)
        }
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(WireItem.encode(item)) + [0x0A])
        } else {
            Terminal.out(
                "set \(Context.place(item)) = \(ValueText.preview(item, limit: 60)) (\(item.type), revision \(Terminal.escaped(item.revision.text))) (jarvis undo)"
            )
        }
        for note in item.notes { Terminal.err(Terminal.yellow("note: ") + note) }
    }

    /// Runs `body`, turning a refusal of what was typed (a value that does not fit, a likely
    /// typo) into a usage error (status 64) whose message names the CLI's flags rather than
    /// the wire's type names; other errors pass as they are.
    private static func usage<T>(_ body: () throws(JarvisError) -> T) throws -> T {
        let result = Result { () throws(JarvisError) in try body() }
        switch result {
        case .success(let value):
            return value
        case .failure(let error) where error.code == .typeMismatch || error.code == .invalidParams:
            throw UsageError(ValueText.forCommandLine(error.message), command: name)
        case .failure(let error):
            throw error
        }
    }
}
