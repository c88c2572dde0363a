import Foundation
import JarvisCore
import JarvisSystem

extension JarvisAgent {
    /// Advertises this agent on the local network with Bonjour (`_jarvis._tcp`), so that
    /// `jarvis agents --network` on a Mac finds an app running on a phone, and prints the TCP
    /// token once to standard error (the Xcode console), since the person at the Mac needs it.
    ///
    /// The TXT record carries the agent's name, pid, `bundleID` and protocol version, never the
    /// token. Start the agent with ``Options/tcp`` on an address the Mac can reach
    /// (`0.0.0.0`), and set ``Options/token`` for automation so the token is known in advance.
    /// On iOS, list `_jarvis._tcp` under `NSBonjourServices` and add
    /// `NSLocalNetworkUsageDescription` in Info.plist.
    /// - Parameters:
    ///   - bundleID: the app's bundle id, shown by `jarvis agents --network`; by default
    ///     `Bundle.main.bundleIdentifier`.
    ///   - printsToken: print the token to standard error (default); off for a host that shows
    ///     ``token`` itself.
    /// - Returns: the advertisement; keep it as long as the agent should be found.
    /// - Throws: ``JarvisError`` `.invalidParams` when the agent does not listen on TCP,
    ///   `.unavailable` off Apple platforms or when the system refuses the registration.
    public func advertiseOnNetwork(
        bundleID: String? = Bundle.main.bundleIdentifier, printsToken: Bool = true
    ) throws(JarvisError) -> NetworkAdvertisement {
        guard case .tcp(_, let port) = tcpEndpoint, let token else {
            throw JarvisError(
                .invalidParams,
                "the agent must listen on TCP to be advertised: start it with Options(tcp: .tcp(host: \"0.0.0.0\", port: 0))"
            )
        }
        let advert = NetworkAgentAdvert(name: record.name, pid: record.pid, bundleID: bundleID)
        let requested = record.name
        // The system's later word (a renamed service, a failure) goes where the token went:
        // whoever reads the app's console must learn which name to use, or that it is gone.
        let advertisement = try NetworkAdvertisement(serviceName: requested, port: port, advert: advert) { status in
            guard let message = status.message(requested: requested) else { return }
            QuietWrite.standardError("Jarvis: \(message)\n")
        }
        guard printsToken else { return advertisement }
        QuietWrite.standardError(
            "Jarvis: '\(record.name)' is advertised on the local network (_jarvis._tcp, port \(port)); token: \(token)\n")
        return advertisement
    }
}
