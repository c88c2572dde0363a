import JarvisCore
import JarvisRemote

extension Context {
    /// The chosen agent's address: a local agent (by pid, name or address), else, where
    /// Bonjour exists, an agent advertised on the local network under that name or bundle id.
    func endpoint() throws(JarvisError) -> Endpoint {
        do {
            return try AgentLocator.endpoint(for: agentSelector)
        } catch {
            guard error.code == .notFound, let selector = agentSelector, NetworkDiscovery.isAvailable else {
                throw error
            }
            guard let agents = try? NetworkDiscovery.browse(), !agents.isEmpty else { throw error }
            return try NetworkDiscovery.agent(named: selector, among: agents).endpoint
        }
    }
}
