import JarvisCore

/// `jarvis inspect`: the full-screen inspector.
enum InspectCommand: Command {
    static let fansOut = true
    static let name = "inspect"
    static let summary = "browse and edit an agent's preferences full-screen, with live\nupdates"
    static let usage = """
        jarvis inspect [--agent NAME|PID|PATH | --agents all|NAME,NAME|GLOB]

          Opens a full-screen browser: scanners, containers, keys and whole values. With
          several agents running and none chosen, it starts with a list to pick from.
          Press ? for keys, q to quit. Needs a terminal; scripts use `jarvis ls`, `get`,
          `set` and `export`. With --agents naming several agents, the first is browsed
          and a key's detail also shows its value on every agent named, one line each
          (≠ where it differs from the first); Ctrl-L reads them again.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try arguments.finish(maxPositionals: 0, command: name)
        try Inspector.run(
            selector: context.agentSelector, token: context.token, fleet: context.fleet(), bound: context.agentsBound)
    }
}
