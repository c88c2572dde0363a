import JarvisCore
import JarvisRemote

/// `jarvis rm`: delete a stored value.
enum RemoveCommand: Command {
    static let name = "rm"
    static let summary = "delete a stored value"
    static let usage = """
        jarvis rm CONTAINER KEY [--expect REVISION]

          --expect REVISION   delete only if the value still has this revision
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let expected = arguments.option("--expect")
        try arguments.finish(maxPositionals: 2, command: name)
        guard arguments.positionals.count == 2 else { throw UsageError("rm needs CONTAINER and KEY", command: name) }
        let client = try context.connect()
        var params = try context.addressParams(container: arguments.positionals[0], key: arguments.positionals[1])
        if let expected { params["expectedRevision"] = .string(expected) }
        let item = try WireItem.decode(try client.call("delete", params)["item"] ?? .null)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(WireItem.encode(item)) + [0x0A])
        } else {
            Terminal.out("removed \(item.address.scanner):\(item.address.container) \(item.address.key)")
        }
    }
}
