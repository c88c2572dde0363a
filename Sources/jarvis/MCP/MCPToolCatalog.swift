import JarvisCore

/// The tools `jarvis mcp` offers, with their schemas. The names are a contract with the
/// prompts and configurations people write: never rename one.
enum MCPToolCatalog {
    /// The writing tools, offered only while an agent allows editing.
    static let writingNames: Set<String> = [
        "set_preference", "delete_preference", "reset_preference", "undo_change", "restore_preferences",
    ]

    /// Every tool; `reveal` arguments appear only when `jarvis mcp --allow-reveal` was given.
    static func tools(allowReveal: Bool) -> [MCPTool] {
        let reveal: [(String, JSONValue)] =
            allowReveal
            ? [
                (
                    "reveal",
                    MCPSchema.boolean("show secrets' values, where the agent allows it (otherwise they stay masked)")
                )
            ]
            : []
        return [
            MCPTool(
                name: "list_agents", title: "List Jarvis agents",
                description:
                    "Lists the running programs (Jarvis agents) whose preferences can be read, with what each allows (editing, reveal, production). Pass an agent's name or pid as `agent` to the other tools when several run.",
                input: MCPSchema.input([]),
                output: MCPSchema.output(
                    [("agents", MCPSchema.array(of: MCPSchema.output([]))), ("chosen", ["type": "string"])],
                    required: ["agents"]),
                writes: false),
            MCPTool(
                name: "list_preferences", title: "List preferences",
                description:
                    "Lists preferences (UserDefaults suites, JSON config files, secrets…) of a running program, with their types, values and revisions. Filter by scanner, container glob and key glob; page with `limit` and `cursor` (the answer's `nextCursor`). Secrets are masked.",
                input: MCPSchema.input(
                    [
                        agent, scanner,
                        (
                            "container",
                            MCPSchema.string("only containers matching this glob (* ? [abc]), e.g. com.example.*")
                        ),
                        ("key", MCPSchema.string("only keys matching this glob")),
                        ("limit", MCPSchema.integer("items per page (default 200)", minimum: 1, maximum: 1_000)),
                        ("cursor", MCPSchema.string("the previous page's nextCursor, with the same filters")),
                    ] + reveal),
                output: MCPSchema.output(
                    [
                        ("items", MCPSchema.array(of: MCPSchema.item)),
                        ("problems", MCPSchema.array(of: MCPSchema.problem)),
                        ("nextCursor", ["type": "string"]),
                    ], required: ["items"]),
                writes: false),
            MCPTool(
                name: "get_preference", title: "Get a preference",
                description:
                    "Reads one preference: its type, value and revision (send the revision back as `expectedRevision` to guard a write). With `pointer` (RFC 6901, e.g. /server/port) reads one place inside a dictionary or array value.",
                input: MCPSchema.input(
                    [agent, scanner, container, key, pointer] + reveal, required: ["container", "key"]),
                output: MCPSchema.output([("item", MCPSchema.item)], required: ["item"]),
                writes: false),
            MCPTool(
                name: "set_preference", title: "Set a preference",
                description:
                    "Stores a value. `value` is JSON in the wire encoding: strings, numbers, booleans, arrays and objects as is; {\"$date\":\"2024-01-15T10:00:00Z\"}, {\"$data\":\"base64\"}, {\"$real\":1.0} for the rest. Without `type`, the value keeps the type the key has (or its catalog declares): \"9090\" for an integer key stores 9090, 9090 for a string key stores \"9090\", and a value that does not fit is refused naming the type to send; a new key takes the value's JSON type, and a string holding a number or true/false is stored as that number or boolean (send type \"string\" to keep it text). With `type`, the value is stored as that type (a date may be a plain ISO 8601 string, data plain base64). A new key one or two letters from an existing one, or one the host's key catalog does not declare where it declares keys, is refused with the nearest name unless `create` is true. With `pointer`, changes one place inside the value and keeps everything around it. With `expectedRevision`, writes only if nobody changed the value since.",
                input: MCPSchema.input(
                    [
                        agent, scanner, container, key,
                        ("value", MCPSchema.any("the new value, JSON in the wire encoding")),
                        (
                            "type",
                            MCPSchema.oneOf(
                                PreferenceType.allCases.map(\.rawValue),
                                "the value's type; when absent, the key's type is kept (a new key's is chosen from the value)")
                        ),
                        pointer, expectedRevision,
                        (
                            "create",
                            MCPSchema.boolean(
                                "create a new key even when it looks like a typo of an existing one or the key catalog does not declare it")
                        ),
                    ], required: ["container", "key", "value"]),
                output: MCPSchema.output([("item", MCPSchema.item)], required: ["item"]),
                writes: true, destructive: true, idempotent: true),
            MCPTool(
                name: "delete_preference", title: "Delete preferences",
                description:
                    "Deletes one stored value (`key`, optionally a `pointer` inside it), or every stored key of the container whose name matches the glob `match`; with `match`, `dryRun: true` only lists what would go. Answers what was deleted.",
                input: MCPSchema.input(
                    [
                        agent, scanner, container,
                        ("key", MCPSchema.string("the key to delete (or use match)")),
                        pointer, expectedRevision,
                        ("match", MCPSchema.string("delete every stored key matching this glob instead of one key")),
                        (
                            "dryRun",
                            MCPSchema.boolean("with match: list the keys that would be deleted, change nothing")
                        ),
                    ], required: ["container"]),
                output: MCPSchema.output([
                    ("item", MCPSchema.item), ("scanner", ["type": "string"]), ("container", ["type": "string"]),
                    ("match", ["type": "string"]), ("dryRun", ["type": "boolean"]), ("count", ["type": "integer"]),
                    ("keys", MCPSchema.array(of: ["type": "string"])),
                ]),
                writes: true, destructive: true, idempotent: true),
            MCPTool(
                name: "reset_preference", title: "Reset a preference to its default",
                description:
                    "Removes a key's stored value so the default declared by the program applies again (its key catalog or a registered default). Resetting a key with nothing stored is not an error.",
                input: MCPSchema.input(
                    [agent, scanner, container, key, expectedRevision], required: ["container", "key"]),
                output: MCPSchema.output([("removed", MCPSchema.item), ("item", MCPSchema.item)]),
                writes: true, destructive: true, idempotent: true),
            MCPTool(
                name: "preference_history", title: "Preference change history",
                description:
                    "What changed, newest last: `entries` is the agent's journal (each change's `id` for undo_change, the value before and after — a secret's never shown — who made it, `outside` for the program itself, and whether it can still be undone); `records` is the audit trail (who set, deleted or revealed which key, with revisions).",
                input: MCPSchema.input([
                    agent, scanner,
                    ("container", MCPSchema.string("only containers matching this glob")),
                    ("key", MCPSchema.string("only keys matching this glob")),
                    ("action", MCPSchema.oneOf(["set", "delete", "reveal", "export"], "only this action")),
                    ("client", MCPSchema.string("only changes made by this client name")),
                    ("limit", MCPSchema.integer("the newest N records (default 100)", minimum: 1, maximum: 1_000)),
                ]),
                output: MCPSchema.output(
                    [
                        ("records", MCPSchema.array(of: MCPSchema.auditRecord)), ("total", ["type": "integer"]),
                        ("capacity", ["type": "integer"]), ("entries", MCPSchema.array(of: MCPSchema.journalEntry)),
                    ], required: ["records"]),
                writes: false),
            MCPTool(
                name: "undo_change", title: "Undo a change",
                description:
                    "Takes back one change from the journal (preference_history's `entries`): without `id`, the newest change not yet undone; called again, it steps further back. It writes the earlier value only if the key still holds what that change left; otherwise nothing is written and the error shows both values and the revision to pass as `forceAt` to write anyway. An undo entry's id redoes it. A change of several keys (entries sharing a `group`: a restore, an import, a bulk delete) is taken back whole or not at all, `undoneGroup` and `entries` listing its keys. Use `dryRun` to see what would be written.",
                input: MCPSchema.input([
                    agent, ("id", MCPSchema.integer("the journal entry to take back", minimum: 1, maximum: Int.max)),
                    ("dryRun", MCPSchema.boolean("say what would be written, and write nothing")),
                    ("forceAt", MCPSchema.string("write even though the key changed, if it is at this revision now")),
                ]),
                output: MCPSchema.output(
                    [
                        ("undone", MCPSchema.journalEntry), ("entry", MCPSchema.journalEntry),
                        ("dryRun", ["type": "boolean"]), ("conflict", ["type": "boolean"]),
                        ("restore", ["type": "object"]), ("item", MCPSchema.item),
                        ("undoneGroup", MCPSchema.array(of: MCPSchema.journalEntry)),
                        ("entries", MCPSchema.array(of: MCPSchema.journalEntry)),
                    ], required: ["undone", "dryRun"]),
                writes: true, destructive: true, idempotent: false),
            MCPTool(
                name: "restore_preferences", title: "Restore preferences to an earlier moment",
                description:
                    "Leaves every key as a journal entry left it (`toEntry`, from preference_history: every later change is taken back, the entry itself stays; 0 takes back every entry) or as it was at a time (`toTime`, ISO 8601), as one change: if any write is refused, what went through is put back. Use `dryRun` first: it lists what would be added, changed and removed.",
                input: MCPSchema.input([
                    agent, ("toEntry", MCPSchema.integer("leave every key as this entry left it: every later one is taken back", minimum: 0, maximum: Int.max)),
                    ("toTime", MCPSchema.string("go back to this ISO 8601 time")),
                    ("containers", MCPSchema.array(of: MCPSchema.string("a container name or glob"))),
                    ("dryRun", MCPSchema.boolean("list what would change, and write nothing")),
                ]),
                output: MCPSchema.output(
                    [("dryRun", ["type": "boolean"]), ("changes", MCPSchema.array(of: MCPSchema.output([])))],
                    required: ["dryRun", "changes"]),
                writes: true, destructive: true, idempotent: false),
            MCPTool(
                name: "check", title: "Check against the key catalog",
                description:
                    "What the program's key catalog does not expect, as `jarvis check` reports it: stored keys it does not declare, values of a type it does not allow, values outside its choices or range, values equal to their default, containers it names that are missing, and containers over 1 MB (tvOS stops an app past 1 MB). `findings` is empty when everything is as the catalog says.",
                input: MCPSchema.input([agent, ("container", MCPSchema.string("only containers matching this glob"))]),
                output: MCPSchema.output(
                    [("findings", MCPSchema.array(of: MCPSchema.output([])))], required: ["findings"]),
                writes: false),
            MCPTool(
                name: "export_snapshot", title: "Export a snapshot",
                description:
                    "A lossless snapshot document (as `jarvis export` writes) of the stored values matching the filters; masked secrets are left out. Pass it to diff_snapshots later to see what changed.",
                input: MCPSchema.input(
                    [
                        agent, scanner,
                        ("container", MCPSchema.string("only containers matching this glob")),
                        ("key", MCPSchema.string("only keys matching this glob")),
                    ] + reveal),
                output: MCPSchema.output(
                    [
                        ("snapshot", MCPSchema.snapshot),
                        ("leftOut", MCPSchema.array(of: MCPSchema.output([]))),
                    ], required: ["snapshot", "leftOut"]),
                writes: false),
            MCPTool(
                name: "diff_snapshots", title: "Compare snapshots",
                description:
                    "Compares two sides and lists what `to` adds, removes and changes relative to `from`. Each side is a snapshot document (from export_snapshot), the path of a snapshot file (from `jarvis export`), \"agent\" for the live values of the agent chosen by `agent`, or \"agent:NAME\" / \"agent:PID\" for another running agent.",
                input: MCPSchema.input(
                    [
                        ("from", side("the first side (the old values)")),
                        ("to", side("the second side (the new values)")),
                        agent, scanner,
                        ("container", MCPSchema.string("compare only containers matching this glob")),
                        ("key", MCPSchema.string("compare only keys matching this glob")),
                    ], required: ["from", "to"]),
                output: MCPSchema.output(
                    [
                        ("added", MCPSchema.array(of: MCPSchema.item)),
                        ("removed", MCPSchema.array(of: MCPSchema.item)),
                        (
                            "changed",
                            MCPSchema.array(
                                of: MCPSchema.output(
                                    [("old", MCPSchema.item), ("new", MCPSchema.item)], required: ["old", "new"]))
                        ),
                        ("unchanged", ["type": "integer"]),
                    ], required: ["added", "removed", "changed", "unchanged"]),
                writes: false),
        ]
    }

    private static let agent = (
        "agent",
        MCPSchema.string(
            "the agent's name or pid (see list_agents); needed only when several agents run and none was chosen with jarvis mcp --agent",
            maxLength: 4_096)
    )
    private static let scanner = (
        "scanner", MCPSchema.string("the scanner id (defaults, files, secrets, …)", maxLength: 256)
    )
    private static let container = (
        "container", MCPSchema.string("the container: a defaults suite, a JSON file's path, a keyring service…")
    )
    private static let key = ("key", MCPSchema.string("the key"))
    private static let pointer = (
        "pointer", MCPSchema.string("a JSON Pointer (RFC 6901) inside the key's value, e.g. /server/port or /tags/0")
    )
    private static let expectedRevision = (
        "expectedRevision",
        MCPSchema.string(
            "only if the value still has this revision (from a previous answer); otherwise a conflict", maxLength: 64)
    )

    private static func side(_ description: String) -> JSONValue {
        [
            "type": ["object", "string"],
            "description": .string(
                description + ": a snapshot document, a snapshot file path, \"agent\" or \"agent:NAME\""),
        ]
    }
}
