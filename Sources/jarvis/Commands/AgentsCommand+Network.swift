import JarvisCore
import JarvisRemote

extension AgentsCommand {
    /// `jarvis agents --network`: the agents advertised with Bonjour, where Bonjour exists.
    static func listNetworkAgents(context: Context) throws(JarvisError) {
        let agents = try NetworkDiscovery.browse()
        if context.json {
            let rows: [JSONValue] = agents.map { agent in
                var row: JSONObject = [
                    "service": .string(agent.serviceName), "name": .string(agent.advert.name),
                    "pid": .number(JSONNumber(Int64(agent.advert.pid))),
                    "endpoint": .string(agent.endpoint.description),
                    "protocolVersion": .string(agent.advert.protocolVersion),
                ]
                if let bundle = agent.advert.bundleID { row["bundleID"] = .string(bundle) }
                return .object(row)
            }
            Terminal.outBytes(JSONWriter.bytes(.array(rows)) + [0x0A])
            return
        }
        guard !agents.isEmpty else {
            Terminal.out(
                "No agents advertise on the local network. In the app, start the agent with TCP on 0.0.0.0 and call advertiseOnNetwork()."
            )
            return
        }
        Terminal.out(
            Terminal.bold(
                Terminal.pad("NAME", 24) + Terminal.pad("BUNDLE ID", 32) + Terminal.pad("PID", 8) + "ADDRESS"))
        for agent in agents {
            Terminal.out(
                Terminal.pad(agent.serviceName, 24) + Terminal.pad(agent.advert.bundleID ?? "-", 32)
                    + Terminal.pad(String(agent.advert.pid), 8) + agent.endpoint.description)
        }
        Terminal.out(
            Terminal.dim("connect: jarvis --agent NAME --token TOKEN ls   (the app prints its token to its console)"))
    }
}
