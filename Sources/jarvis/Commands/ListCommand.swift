import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// `jarvis ls`: every visible item, grouped by scanner and container.
enum ListCommand: Command {
    static let fansOut = true
    static let name = "ls"
    static let summary = "list preferences: every scanner, container and key the agent shows"
    static let usage = """
        jarvis ls [CONTAINER] [--scanner ID] [--key PATTERN]
                         [--reveal] [--undeclared] [--json]

          CONTAINER        a container name or glob (`com.example.*`), optionally
                           SCANNER:CONTAINER
          --scanner ID     only this scanner (defaults, files, secrets, …)
          --key PATTERN    only keys matching this glob (`workout_*`)
          --reveal         show secret values, where the agent allows it
          --undeclared     only stored keys the host's key catalog does not declare
                           (orphans), in the containers where it declares any;
                           `rm --undeclared` removes them
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        var scanner = arguments.option("--scanner")
        let key = arguments.option("--key")
        let reveal = arguments.flag("--reveal")
        let undeclared = arguments.flag("--undeclared")
        try arguments.finish(maxPositionals: 1, command: name)
        if let fleet = try context.fleet() {
            let (typedScanner, positional) = (scanner, arguments.positionals.first)
            FleetReads.list(
                fleet,
                params: { agent in
                    let (scanner, container) = try agent.filters(container: positional, scanner: typedScanner)
                    return Wire.ListParams(
                        scanner: scanner, container: container, key: key, reveal: reveal, undeclared: undeclared)
                }, context: context)
        }
        let client = try context.connect()
        let container: String?
        (scanner, container) = try context.filters(container: arguments.positionals.first, scanner: scanner)
        let listing = try client.listing(
            Wire.ListParams(scanner: scanner, container: container, key: key, reveal: reveal, undeclared: undeclared))
        // A container named exactly that does not exist is a mistake, not an empty listing.
        if let container, listing.items.isEmpty, listing.problems.isEmpty,
            !container.contains(where: { "*?[\\".contains($0) })
        {
            let known = try client.containers(scanner: scanner)
            if !known.contains(where: { $0.name == container }) {
                throw JarvisError(
                    .notFound,
                    "no container '\(container)'\(scanner.map { " in \($0)" } ?? "").\(Suggestion.phrase(for: container, among: known.map(\.name))) Run `jarvis ls` to see them all."
                )
            }
        }
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(listing.json) + [0x0A])
            return
        }
        // Every container shows, an empty one too, as `jarvis mcp` lists each as a resource; a
        // key filter or --undeclared asks about keys, so there only containers with some show.
        var empty: [Wire.Container] = []
        if key == nil && !undeclared {
            let pattern = container.map { GlobPattern($0) }
            let shown = Set(listing.items.map { "\($0.address.scanner):\($0.address.container)" })
                .union(listing.problems.map { "\($0.scanner):\($0.name)" })
            // Asked scanner by scanner, leaving out those the listing found silent or broken
            // as a whole: a keyring that never answered is not waited for twice.
            let silent = Set(listing.problems.filter(\.name.isEmpty).map(\.scanner))
            var known: [Wire.Container] = []
            for id in scanner.map({ [$0] }) ?? client.helloResult.scanners where !silent.contains(id) {
                known += try client.containers(scanner: id)
            }
            empty = known.filter {
                !shown.contains("\($0.scanner):\($0.name)") && (pattern?.matches($0.name) ?? true)
            }
        }
        // Sizes are named only where whole containers were listed (a key filter lists parts).
        let sizes = key == nil && !undeclared ? ContainerSize.byContainer(listing.items) : [:]
        print(items: listing.items, empty: empty, problems: listing.problems, sizes: sizes, client: client)
        let hidden = listing.hiddenSystemContainers
        if hidden > 0 {
            Terminal.out(
                Terminal.dim(
                    "\(hidden) system container\(hidden == 1 ? "" : "s") hidden (Apple's own domains, com.apple.* and global ones); start the agent with --system-domains to show them"
                ))
        }
    }

    private static func print(
        items: [PreferenceItem], empty: [Wire.Container], problems: [Wire.Container],
        sizes: [PreferenceAddress: ContainerSize], client: JarvisClient
    ) {
        if !client.helloResult.capabilities.editing {
            Terminal.out(Terminal.yellow("read-only agent: editing is disabled"))
        }
        var current: (String, String)?
        let keyWidth = min(32, max(12, items.map { Terminal.escaped($0.address.key).count }.max() ?? 0) + 2)
        for item in items {
            let group = (item.address.scanner, item.address.container)
            if current.map({ $0 != group }) ?? true {
                if current != nil { Terminal.out("") }
                Terminal.out(Terminal.bold(Terminal.cyan(Terminal.escaped("\(group.0):\(group.1)"))))
                let place = PreferenceAddress(scanner: group.0, container: group.1, key: "")
                if let warning = sizes[place]?.warning { Terminal.out(Terminal.yellow("  " + warning)) }
                current = group
            }
            var flags: [String] = []
            // An unset key's value column already says so, with its default.
            if item.catalog?.isUnset != true, let value = item.catalog?.defaultValue {
                flags.append("default: " + ValueText.short(value, limit: 30))
            }
            if item.layer == .registered { flags.append("default") }
            if let encoding = item.encoding { flags.append(encoding.rawValue) }
            if item.isPlaceholder { flags.append("placeholder") }
            if !item.isWritable { flags.append("read-only") }
            let flagText = flags.isEmpty ? "" : "  (" + flags.joined(separator: ", ") + ")"
            let key = Terminal.pad(Terminal.escaped(item.address.key), keyWidth)
            // On a terminal the value gives way so the line fits; the key never does.
            var limit = 60
            if let width = Terminal.width { limit = max(8, width - 2 - key.count - 11 - flagText.count) }
            var shownFlags = flagText
            if let width = Terminal.width, 2 + key.count + 11 + 8 + flagText.count > width {
                shownFlags = Terminal.fit(flagText, max(0, width - 2 - key.count - 11 - 8))
            }
            Terminal.out(
                "  " + key + Terminal.dim(Terminal.pad(item.type.rawValue, 11)) + ValueText.preview(item, limit: limit)
                    + (shownFlags.isEmpty ? "" : Terminal.dim(shownFlags)))
        }
        for container in empty {
            if !items.isEmpty || container != empty.first { Terminal.out("") }
            Terminal.out(Terminal.bold(Terminal.cyan(Terminal.escaped("\(container.scanner):\(container.name)"))))
            Terminal.out(Terminal.dim("  (no keys)"))
        }
        // One line per problem, cut to the terminal's width (`--json` has the whole message).
        for problem in problems {
            // A problem of a scanner as a whole has no container name.
            let place = problem.name.isEmpty ? problem.scanner : "\(problem.scanner):\(problem.name)"
            let line = Terminal.escaped("\(place): \(problem.problem ?? "cannot be read")")
            Terminal.out(Terminal.red(Terminal.fit(line, Terminal.width)))
        }
        if items.isEmpty && empty.isEmpty && problems.isEmpty {
            Terminal.out("Nothing to show: no visible items match.")
        }
    }
}
