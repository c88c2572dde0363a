import JarvisCore
import JarvisInspector
import JarvisRemote

/// `jarvis get`: one value, whole.
enum GetCommand: Command {
    static let fansOut = true
    static let name = "get"
    static let summary = "print one value (nested values as pretty JSON)"
    static let usage = """
        jarvis get CONTAINER KEY [--reveal] [--json]

          CONTAINER   a container name, or SCANNER:CONTAINER where the name alone is
                      ambiguous
          KEY         a key, or a JSON Pointer starting with the key: /server/port,
                      /tags/0
          --reveal    show a secret's value, where the agent allows it
          --json      print the whole item (type, revision, flags) as JSON
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let reveal = arguments.flag("--reveal")
        try arguments.finish(maxPositionals: 2, command: name)
        guard arguments.positionals.count == 2 else { throw UsageError("get needs CONTAINER and KEY", command: name) }
        if let fleet = try context.fleet() {
            FleetReads.get(fleet, container: arguments.positionals[0], key: arguments.positionals[1], reveal: reveal, context: context)
        }
        let client = try context.connect()
        let place = try context.itemPlace(container: arguments.positionals[0], key: arguments.positionals[1])
        let item = try context.suggesting(client, place) { () throws(JarvisError) in try client.get(place, reveal: reveal) }
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(WireItem.encode(item)) + [0x0A])
            return
        }
        if item.catalog?.isUnset == true {
            // Nothing is stored: what the app sees is the catalog's default, said as such.
            guard let fallback = item.catalog?.defaultValue else {
                throw JarvisError(
                    .notFound,
                    "nothing is stored for '\(item.address.key)' in \(item.address.container), and the key catalog gives it no default")
            }
            Terminal.out(ValueText.full(fallback))
            Terminal.err(("note: '\(Terminal.escaped(item.address.key))' is unset; that is its default from the key catalog"))
            return
        }
        if let value = item.value {
            Terminal.out(ValueText.full(value))
            // The JSON above holds what JSON has no type for as strings: say how (stdout stays JSON).
            if let note = ValueFormat.jsonNote(value) { Terminal.err("note: " + note) }
        } else {
            Terminal.out(ValueText.preview(item, limit: 80))
        }
    }
}
