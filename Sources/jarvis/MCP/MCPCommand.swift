import Foundation
import JarvisCore

/// `jarvis mcp`: serve a running agent to a coding assistant over the Model Context Protocol.
enum MCPCommand: Command {
    static let name = "mcp"
    static let summary = "serve agents to coding assistants (Claude Code, Cursor, VS Code)\nover MCP on stdio"
    static let usage = """
        jarvis mcp [--agent NAME|PID] [--allow-reveal]

          An MCP server on standard input and output (newline-delimited JSON-RPC 2.0,
          protocol revisions 2025-06-18, 2025-11-25 and 2026-07-28), meant to be started
          by an MCP client. It offers the tools list_agents, list_preferences,
          get_preference, set_preference, delete_preference, reset_preference,
          preference_history, undo_change, restore_preferences, check, export_snapshot
          and diff_snapshots, and each container as the resource
          jarvis://AGENT/SCANNER/CONTAINER (subscriptions follow the agent's watch).

          --agent NAME|PID   the agent tools use by default; without it, every running
                             agent is served and a tool's `agent` argument chooses when
                             several run
          --allow-reveal     let tools show secrets' values (`reveal`), where the agent
                             allows it; without it secrets always stay masked

          The writing tools (set, delete, reset) are offered only while an agent allows
          editing; the client is told (notifications/tools/list_changed) when that
          changes. Changes are recorded in the agent's audit trail under the MCP
          client's name. See docs/MCP.md for the Claude Code, Cursor and VS Code
          configuration.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let allowReveal = arguments.flag("--allow-reveal")
        try arguments.finish(maxPositionals: 0, command: name)
        let server = MCPServer(
            bridge: MCPAgentBridge(selector: context.agentSelector, token: context.token), allowReveal: allowReveal)
        if isatty(STDIN_FILENO) == 1 {
            server.output.log(
                "waiting for an MCP client on standard input; this command is meant to be started by a coding assistant (see `jarvis help mcp`)"
            )
        }
        server.run()
    }
}
