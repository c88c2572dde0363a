import JarvisCore
import JarvisRemote

/// Containers as MCP resources: `resources/list`, `resources/templates/list` and
/// `resources/read`. A resource's text is JSON holding the container's items in the wire
/// shape; secrets are always masked here (only a tool call can ask for a reveal).
struct MCPResources: Sendable {
    let bridge: MCPAgentBridge

    /// The MIME type of every resource.
    static let mimeType = "application/json"

    /// The `resources/list` entries of `agents`' containers.
    func entries(of agents: [MCPAgent]) -> [JSONValue] {
        var resources: [JSONValue] = []
        for agent in agents {
            let label = MCPAgentBridge.label(of: agent, among: agents)
            guard let containers = try? agent.client.containers() else { continue }
            // An entry without a name is a scanner that did not answer, not a container to read.
            for container in containers where !container.name.isEmpty {
                let (scanner, name) = (container.scanner, container.name)
                let uri = MCPResourceURI(agent: label, scanner: scanner, container: name)
                // Names from storage are quoted as tool text quotes them (``MCPToolText/quoted(_:limit:)``).
                let quoted = MCPToolText.quoted(name)
                let agentName = MCPToolText.quoted(agent.name, limit: 64)
                var description = "The \(scanner) container \(quoted) of the agent \(agentName): its items as JSON"
                if !container.writable { description += " (read-only)" }
                if let problem = container.problem {
                    description += "; it cannot be read: \(MCPToolText.printable(problem))"
                }
                resources.append([
                    "uri": .string(uri.description), "name": .string("\(scanner):\(name)"),
                    "title": .string("\(quoted) (\(scanner), \(MCPToolText.quoted(label, limit: 64)))"),
                    "description": .string(description),
                    "mimeType": .string(Self.mimeType),
                ])
            }
        }
        return resources
    }

    /// The URI template of the resources.
    func templates() -> JSONValue {
        [
            "resourceTemplates": [
                [
                    "uriTemplate": .string(MCPResourceURI.template), "name": "container",
                    "title": "A container of a Jarvis agent",
                    "description":
                        "The items of one container (defaults suite, JSON file, keyring service…) of a running agent, as JSON",
                    "mimeType": .string(Self.mimeType),
                ]
            ]
        ]
    }

    /// One container's items.
    func read(_ text: String) throws(RPCError) -> JSONValue {
        let (uri, agent) = try resolve(text)
        let result: Wire.ListPage
        do {
            result = try agent.client.listing(Wire.ListParams(scanner: uri.scanner, container: uri.containerGlob))
        } catch {
            throw RPCError.internalError("the agent could not list \(text): \(error.message)")
        }
        let document: JSONValue = [
            "agent": .string(agent.name), "scanner": .string(uri.scanner), "container": .string(uri.container),
            "items": .array(result.items.map(WireItem.encode)), "problems": .array(result.problems.map(\.json)),
        ]
        return [
            "contents": [
                [
                    "uri": .string(text), "mimeType": .string(Self.mimeType),
                    "text": .string(JSONWriter.string(document, pretty: true)),
                ]
            ]
        ]
    }

    /// The URI read and its agent, once the container is known to exist.
    /// - Throws: ``RPCError`` `-32602` for a URI of another form, `-32002` when the agent
    ///   or the container is not there.
    func resolve(_ text: String) throws(RPCError) -> (MCPResourceURI, MCPAgent) {
        guard let uri = MCPResourceURI(parsing: text) else {
            throw .invalidParams(
                "'\(text.prefix(200))' is not a Jarvis resource URI; they look like \(MCPResourceURI.template)")
        }
        let agent: MCPAgent
        do {
            agent = try bridge.agent(for: uri.agent)
        } catch {
            throw .resourceNotFound("resource not found: \(text): \(error.message)")
        }
        let containers: [Wire.Container]
        do {
            containers = try agent.client.containers(scanner: uri.scanner)
        } catch {
            throw .resourceNotFound("resource not found: \(text): \(error.message)")
        }
        guard containers.contains(where: { $0.name == uri.container }) else {
            throw .resourceNotFound(
                "resource not found: the agent \(agent.name) has no container \(uri.container) in \(uri.scanner)")
        }
        return (uri, agent)
    }
}
