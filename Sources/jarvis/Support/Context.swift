import Foundation
import JarvisCore
import JarvisRemote

/// What every command shares: the global options and, once asked for, the connection.
final class Context {
    let agentSelector: String?
    let json: Bool
    /// The TCP token: `--token`, else `JARVIS_TOKEN`, else the local discovery file's.
    let token: String?
    private var client: JarvisClient?

    init(arguments: inout Arguments, agent: String? = nil) {
        let typed = arguments.option("--agent")
        agentSelector = agent ?? typed
        json = arguments.flag("--json")
        let environment = ProcessInfo.processInfo.environment["JARVIS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        token = arguments.option("--token") ?? environment
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
        (try connect().hello["scanners"]?.arrayValue ?? []).compactMap(\.stringValue)
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

    /// The params that name one key.
    func addressParams(container text: String, key: String) throws(JarvisError) -> JSONObject {
        let (scanner, container) = try split(container: text)
        var params: JSONObject = ["container": .string(container), "key": .string(key)]
        if let scanner { params["scanner"] = .string(scanner) }
        return params
    }
}

extension Context {
    /// A context for a command run on behalf of another (the demo lists its own agent).
    convenience init(agent: String) {
        var none = Arguments.empty
        self.init(arguments: &none, agent: agent)
    }
}
