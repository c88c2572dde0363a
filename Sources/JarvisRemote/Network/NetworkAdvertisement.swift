import Foundation
import JarvisCore

/// An agent's Bonjour advertisement (`_jarvis._tcp`), made by
/// ``JarvisAgent/advertiseOnNetwork(bundleID:printsToken:)``: keep it while the agent should be found,
/// call ``stop()`` (or let it go) to withdraw it.
public final class NetworkAdvertisement: Sendable {
    /// The service name advertised (the agent's name).
    public let serviceName: String
    /// The TCP port advertised.
    public let port: UInt16
    #if canImport(dnssd)
        private let registration: DNSSDRegistration
    #endif

    /// Where the registration stands: the name the system registered (another one than
    /// ``serviceName`` after a conflict), or a failure it reported after the start.
    public var status: NetworkRegistrationStatus {
        #if canImport(dnssd)
            registration.replies.status.current
        #else
            .pending
        #endif
    }

    /// - Parameter onChange: told of every reply of the system (on its queue): the name
    ///   registered, or a failure after the start.
    init(
        serviceName: String, port: UInt16, advert: NetworkAgentAdvert,
        onChange: @escaping @Sendable (NetworkRegistrationStatus) -> Void = { _ in }
    ) throws(JarvisError) {
        self.serviceName = serviceName
        self.port = port
        #if canImport(dnssd)
            registration = try DNSSDRegistration(
                name: serviceName, port: port, txtRecord: advert.txtRecord(), onChange: onChange)
        #else
            throw NetworkDiscovery.unavailable("advertising the agent with Bonjour")
        #endif
    }

    /// Withdraws the advertisement. Idempotent.
    public func stop() {
        #if canImport(dnssd)
            registration.stop()
        #endif
    }
}
