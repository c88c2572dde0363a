import JarvisCore

/// One `jarvis` subcommand: its help text and what it does.
protocol Command: Sendable {
    /// The word typed after `jarvis`.
    static var name: String { get }
    /// The line for `jarvis help`; a `\n` in it continues under the summary column (the
    /// overview stays within 80 columns).
    static var summary: String { get }
    /// Full usage for `jarvis help NAME` and `--help`.
    static var usage: String { get }
    /// Runs with the arguments after the command word.
    static func run(_ arguments: inout Arguments, context: Context) throws
    /// Whether the command acts on several agents at once when `--agents` names them.
    static var fansOut: Bool { get }
}

// MARK: - Default implementations

extension Command {
    /// Most commands act on one agent.
    static var fansOut: Bool { false }
}

/// The commands that take `--agents`, for messages.
let fanOutCommandNames = "ls, get, set, rm, undo, redo, watch, export, import and inspect"

/// Every command, in the order `jarvis help` lists them.
let commands: [any Command.Type] = [
    AgentsCommand.self, DevicesCommand.self, ListCommand.self, GetCommand.self, SetCommand.self, RemoveCommand.self, ResetCommand.self,
    WatchCommand.self, HistoryCommand.self, UndoCommand.self, RedoCommand.self, RestoreCommand.self, CheckCommand.self, InspectCommand.self, ExportCommand.self, ImportCommand.self,
    DiffCommand.self, DemoCommand.self, MCPCommand.self, WebCommand.self,
    HelpCommand.self,
]

/// The global options, printed under every command's usage.
let globalOptions = """
    Global options:
      --agent NAME|PID|PATH   the agent to talk to (or JARVIS_AGENT); needed only
                              when several run; tcp://HOST:PORT for an agent
                              listening on TCP; on macOS also the name of an agent
                              advertised on the local network
                              (`jarvis agents --network`)
      --token-file FILE       the agent's TCP token, read from FILE (yours, mode
                              0600); or JARVIS_TOKEN; not needed for local agents
      --token TOKEN           the token itself: visible to every local user in `ps`,
                              so avoid it
      --agents all|NAME,NAME|GLOB
                              act on several agents at once (or JARVIS_AGENTS;
                              ls, get, set, rm, undo, redo, watch, export, import,
                              inspect): one result per agent, exit status 0 only
                              when every agent did it; never implied
      --agents-timeout SECS   how long --agents waits for its slowest agent (5)
      --json                  machine-readable output
      -h, --help              this help
    """
