import Foundation
import JarvisCore

/// Bonjour on the local network: an agent advertising itself, `jarvis` browsing for agents.
///
/// Both need the system's mDNS responder, which only Apple platforms provide to Jarvis
/// (`dnssd` and Network framework). Elsewhere every call throws ``unavailable(_:)``, with a
/// message saying how to connect without discovery.
package enum NetworkDiscovery {
    /// Whether this platform can advertise and browse.
    package static var isAvailable: Bool {
        #if canImport(dnssd) && canImport(Network)
            true
        #else
            false
        #endif
    }

    /// The error every Bonjour call throws where Bonjour is not available.
    package static func unavailable(_ what: String) -> JarvisError {
        JarvisError(
            .unavailable,
            "\(what) is not available on this platform: Bonjour discovery works on macOS and iOS only. "
                + "Connect directly with `jarvis --agent tcp://HOST:PORT --token TOKEN …`, or through a tunnel "
                + "(`ssh -L 7777:127.0.0.1:7777 HOST`, `iproxy 7777 7777`)")
    }

    /// Finds the agents advertising on the local network, waiting up to `timeout` for answers.
    /// - Throws: ``JarvisError`` `.unavailable` off Apple platforms, or when the network
    ///   cannot be browsed (local network permission denied).
    package static func browse(timeout: Duration = .seconds(3)) throws(JarvisError) -> [NetworkAgent] {
        #if canImport(Network)
            return try NetworkBrowsing.browse(timeout: timeout)
        #else
            throw unavailable("`--network` (browsing for agents with Bonjour)")
        #endif
    }

    /// The one network agent `selector` names (service name, agent name or bundle id).
    /// - Throws: ``JarvisError`` `.notFound` naming what was found, `.invalidParams` when
    ///   several match, or what ``browse(timeout:)`` throws.
    package static func agent(named selector: String, among agents: [NetworkAgent]) throws(JarvisError) -> NetworkAgent
    {
        let matches = agents.filter { $0.matches(selector) }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let names = agents.map(\.serviceName)
            throw JarvisError(
                .notFound,
                "no agent named '\(selector)' here or on the local network"
                    + (names.isEmpty ? "" : "; on the network: " + names.joined(separator: ", ")))
        default:
            throw JarvisError(
                .invalidParams,
                "several network agents match '\(selector)': "
                    + matches.map { "\($0.serviceName) (\($0.endpoint))" }.joined(separator: ", ")
                    + "; use the service name or --agent tcp://HOST:PORT")
        }
    }
}
