import JarvisCore
import JarvisRemote

/// `jarvis rm`: delete a stored value, a place inside one, or every key matching a pattern.
enum RemoveCommand: Command {
    static let fansOut = true
    static let name = "rm"
    static let summary = "delete a stored value, a nested value, every key matching --match,\nor the undeclared ones"
    static let usage = """
        jarvis rm CONTAINER KEY [--expect REVISION]
        jarvis rm CONTAINER --match PATTERN [--dry-run]
        jarvis rm CONTAINER --undeclared [--dry-run]

          KEY                 a key, or a JSON Pointer starting with the key
                              (/profile/tags/1)
          --expect REVISION   delete only if the value still has this revision
          --match PATTERN     every stored key of CONTAINER matching the glob (hidden
                              keys never match)
          --undeclared        every stored key of CONTAINER that the host's key catalog
                              does not declare (orphans; `jarvis ls --undeclared` lists
                              them)
          --dry-run           with --match, --undeclared or --agents: list what
                              would go and change nothing
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let expected = arguments.option("--expect")
        let match = arguments.option("--match")
        let undeclared = arguments.flag("--undeclared")
        let dryRun = arguments.flag("--dry-run")
        if match != nil || undeclared {
            let option = match == nil ? "--undeclared" : "--match"
            try arguments.finish(maxPositionals: 1, command: name)
            guard arguments.positionals.count == 1, expected == nil else {
                throw UsageError("rm \(option) takes CONTAINER only (no KEY, no --expect)", command: name)
            }
            guard match == nil || !undeclared else {
                throw UsageError("rm takes --match or --undeclared, not both", command: name)
            }
            if let fleet = try context.fleet() {
                FleetWrites.removeKeys(fleet, match: match, container: arguments.positionals[0], dryRun: dryRun, context: context)
            }
            try removeKeys(match: match, container: arguments.positionals[0], dryRun: dryRun, context: context)
            return
        }
        try arguments.finish(maxPositionals: 2, command: name)
        guard arguments.positionals.count == 2 else { throw UsageError("rm needs CONTAINER and KEY", command: name) }
        if let fleet = try context.fleet() {
            FleetWrites.remove(
                fleet, container: arguments.positionals[0], key: arguments.positionals[1],
                expected: expected.map(Revision.init), dryRun: dryRun, context: context)
        }
        guard !dryRun else {
            throw UsageError("--dry-run goes with --match, --undeclared or --agents", command: name)
        }
        let client = try context.connect()
        let place = try context.itemPlace(container: arguments.positionals[0], key: arguments.positionals[1])
        let item = try context.suggesting(client, place) { () throws(JarvisError) in
            try client.delete(place, expectedRevision: expected.map(Revision.init))
        }
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(WireItem.encode(item)) + [0x0A])
        } else {
            Terminal.out("removed \(Context.place(item)) (jarvis undo)")
        }
    }

    /// Removes the keys matching `match`, or without it the undeclared ones.
    private static func removeKeys(match: String?, container: String, dryRun: Bool, context: Context) throws {
        let client = try context.connect()
        let (scanner, name) = try context.split(container: container)
        let params =
            match.map { Wire.BulkDeleteParams(scanner: scanner, container: name, match: $0, dryRun: dryRun) }
            ?? Wire.BulkDeleteParams(scanner: scanner, undeclaredIn: name, dryRun: dryRun)
        let result = try client.deleteKeys(params)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(result.json) + [0x0A])
            return
        }
        let keys = result.keys
        let place = Terminal.escaped("\(result.scanner):\(name)")
        for key in keys { Terminal.out("  " + Terminal.escaped(key)) }
        let count = keys.count == 1 ? "1 key" : "\(keys.count) keys"
        if dryRun {
            Terminal.out("would remove \(count) from \(place) (dry run: nothing was changed)")
        } else {
            Terminal.out("removed \(count) from \(place) as one change (one jarvis undo puts them back)")
        }
    }
}
