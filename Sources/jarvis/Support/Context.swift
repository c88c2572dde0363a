import Foundation
import JarvisCore
import JarvisRemote

/// What every command shares: the global options and, once asked for, the connection.
final class Context {
    let agentSelector: String?
    let json: Bool
    /// The TCP token: `--token`, else `--token-file`'s, else `JARVIS_TOKEN`, else the local
    /// discovery file's.
    let token: String?
    /// `--agents` (else `JARVIS_AGENTS`): the agents a command fans out to; nil for one agent.
    let agents: AgentSelection?
    /// Whether `--agents` was typed (not only set in the environment).
    let agentsTyped: Bool
    /// `--agents-timeout`: how long a fan-out waits for its slowest agent.
    let agentsBound: Duration
    private var client: JarvisClient?

    /// Reads the global options.
    /// - Throws: ``UsageError`` for `--token` beside `--token-file`; ``JarvisError`` for a
    ///   token file that is not the user's own and private (see ``TokenFile``).
    init(arguments: inout Arguments, agent: String? = nil) throws {
        let typed = arguments.option("--agent")
        agentSelector = agent ?? typed
        json = arguments.flag("--json")
        (agents, agentsTyped, agentsBound) = try Self.fanOut(&arguments, single: agentSelector)
        let typedToken = arguments.option("--token")
        let tokenFile = arguments.option("--token-file")
        if typedToken != nil, tokenFile != nil {
            throw UsageError("--token and --token-file both name a token; give one (--token-file keeps it out of `ps`)")
        }
        if typedToken != nil {
            Terminal.err(
                "jarvis: warning: --token is visible to every local user (ps); use --token-file FILE or JARVIS_TOKEN")
        }
        let environment = ProcessInfo.processInfo.environment["JARVIS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let typedToken {
            token = typedToken
        } else if let tokenFile {
            token = try TokenFile.read(tokenFile)
        } else {
            token = environment
        }
    }

    /// A context over a connection already open: one agent of a fan-out.
    init(client: JarvisClient, json: Bool) {
        agentSelector = nil
        self.json = json
        token = nil
        agents = nil
        agentsTyped = false
        agentsBound = FleetRun.defaultBound
        self.client = client
    }

    /// The connection to the chosen agent, opened on first use.
    func connect() throws(JarvisError) -> JarvisClient {
        if let client { return client }
        let endpoint = try endpoint()
        let opened = try JarvisClient(
            endpoint: endpoint, clientName: "jarvis-cli", token: token ?? AgentLocator.localToken(for: endpoint))
        client = opened
        return opened
    }

    /// The scanner ids the agent serves.
    func scannerIDs() throws(JarvisError) -> [String] {
        try connect().helloResult.scanners
    }

    /// Splits `scanner:container` when the prefix names one of the agent's scanners; otherwise
    /// the whole text is the container and the agent finds its scanner.
    func split(container text: String) throws(JarvisError) -> (scanner: String?, container: String) {
        if let colon = text.firstIndex(of: ":") {
            let prefix = String(text[..<colon])
            if try scannerIDs().contains(prefix) {
                return (prefix, String(text[text.index(after: colon)...]))
            }
        }
        return (nil, text)
    }

    /// The scanner and container a listing command narrows to: its CONTAINER argument (which
    /// may carry the scanner as a prefix) and `--scanner`.
    func filters(container text: String?, scanner: String?) throws(JarvisError) -> (
        scanner: String?, container: String?
    ) {
        guard let text else { return (scanner, nil) }
        let split = try split(container: text)
        return (split.scanner ?? scanner, split.container)
    }

    /// The place that names one key (its whole value).
    func keyPlace(container text: String, key: String) throws(JarvisError) -> Wire.Place {
        let (scanner, container) = try split(container: text)
        return Wire.Place(scanner: scanner, container: container, key: key)
    }
}

extension Context {
    /// A context for a command run on behalf of another (the demo lists its own agent).
    convenience init(agent: String) throws {
        var none = Arguments.empty
        try self.init(arguments: &none, agent: agent)
    }
}
