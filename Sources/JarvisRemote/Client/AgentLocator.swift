import Foundation
import JarvisCore

/// Turns what a user typed (`--agent`, `JARVIS_AGENT`) into an endpoint: a name, a pid, a
/// socket path or `tcp://host:port`; with nothing typed, the one agent that runs.
public enum AgentLocator {
    /// The endpoint to connect to.
    /// - Throws: ``JarvisError`` `.notFound` when nothing matches (or several agents run and
    ///   none was chosen), with the list of running agents in the message.
    public static func endpoint(
        for selector: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(JarvisError) -> Endpoint {
        let chosen = selector ?? environment["JARVIS_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
        if let chosen {
            if chosen.hasPrefix("tcp://") || chosen.hasPrefix("unix://") || chosen.contains("/") {
                do {
                    return try Endpoint(parsing: chosen)
                } catch {
                    throw JarvisError(.invalidParams, "'\(chosen)' is not an agent address: \(error)")
                }
            }
            let running = AgentDirectory.running(environment: environment)
            let matches = running.filter { String($0.pid) == chosen || $0.name == chosen }
            switch matches.count {
            case 1: return .unix(path: matches[0].socket)
            case 0:
                throw JarvisError(.notFound, "no running agent named or numbered '\(chosen)'.\n" + describe(running))
            default:
                throw JarvisError(
                    .notFound,
                    "several agents are named '\(chosen)'; choose one by pid with --agent.\n" + describe(matches))
            }
        }
        let running = AgentDirectory.running(environment: environment)
        switch running.count {
        case 1: return .unix(path: running[0].socket)
        case 0:
            let folder = RuntimeDirectory.current(environment: environment).url.path
            throw JarvisError(
                .notFound,
                "no running agent found in \(folder); start one (`jarvis-agent --demo`, or a host that embeds JarvisAgent) or pass --agent"
            )
        default:
            throw JarvisError(
                .notFound, "several agents are running; choose one with --agent NAME|PID.\n" + describe(running))
        }
    }

    /// The token of a TCP endpoint served by an agent of this user on this machine, read from
    /// its owner-only discovery file; nil for Unix endpoints and for remote or unknown agents.
    public static func localToken(
        for endpoint: Endpoint, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        guard case .tcp = endpoint else { return nil }
        let wanted = endpoint.description
        return AgentDirectory.running(environment: environment).first { record in
            guard let tcp = record.tcp, let served = try? Endpoint(parsing: tcp) else { return false }
            return served.description == wanted || (served.isLoopbackAlias(of: endpoint))
        }?.token
    }

    private static func describe(_ records: [AgentRecord]) -> String {
        guard !records.isEmpty else { return "No agents are running." }
        return "Running agents:\n" + records.map { "  \($0.pid)  \($0.name)  \($0.socket)" }.joined(separator: "\n")
    }
}

extension Endpoint {
    /// Whether both are TCP endpoints on the same port, one on a wildcard or loopback address
    /// and the other on loopback: the same local agent reached by another spelling.
    fileprivate func isLoopbackAlias(of other: Endpoint) -> Bool {
        guard case .tcp(let host, let port) = self, case .tcp(let otherHost, let otherPort) = other, port == otherPort
        else {
            return false
        }
        let local: Set<String> = ["127.0.0.1", "localhost", "::1", "0.0.0.0", "::"]
        return local.contains(host) && ["127.0.0.1", "localhost", "::1"].contains(otherHost)
    }
}
