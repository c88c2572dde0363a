import Foundation
import JarvisTransport

/// What an agent tells the local network about itself with Bonjour (`_jarvis._tcp`), in its
/// TXT record: enough to pick the right agent before connecting. Never the token.
package struct NetworkAgentAdvert: Sendable, Hashable {
    /// The Bonjour service type agents advertise.
    package static let serviceType = "_jarvis._tcp"

    /// The agent's name (``JarvisAgent/Options/name``), also the Bonjour service name.
    package var name: String
    /// The host process's id.
    package var pid: Int32
    /// The host app's bundle id, when it has one.
    package var bundleID: String?
    /// The protocol version the agent speaks (`1.0`).
    package var protocolVersion: String

    /// An advert.
    package init(name: String, pid: Int32, bundleID: String?, protocolVersion: String = ProtocolVersion.current) {
        self.name = name
        self.pid = pid
        self.bundleID = bundleID
        self.protocolVersion = protocolVersion
    }

    /// The TXT record's pairs: `txtvers`, `name`, `pid`, `bundle` (when known), `proto`.
    package var txtPairs: [String: String] {
        var pairs = ["txtvers": "1", "name": name, "pid": String(pid), "proto": protocolVersion]
        if let bundleID { pairs["bundle"] = bundleID }
        return pairs
    }

    /// Reads an advert from TXT pairs; the service name stands in for a missing `name`.
    /// Nil when the pairs are not a Jarvis agent's (no protocol version).
    package init?(serviceName: String, txtPairs: [String: String]) {
        guard let version = txtPairs["proto"], ProtocolVersion.major(of: version) != nil else { return nil }
        name = txtPairs["name"].flatMap { $0.isEmpty ? nil : $0 } ?? serviceName
        pid = txtPairs["pid"].flatMap { Int32($0) } ?? 0
        bundleID = txtPairs["bundle"].flatMap { $0.isEmpty ? nil : $0 }
        protocolVersion = version
    }

    /// The TXT record's bytes, with the name shortened if it would not fit in one entry.
    package func txtRecord() -> [UInt8] {
        var pairs = txtPairs
        if let name = pairs["name"], name.utf8.count > 200 {
            pairs["name"] = String(decoding: Array(name.utf8.prefix(200)), as: UTF8.self)
        }
        if let bundle = pairs["bundle"], bundle.utf8.count > 200 { pairs["bundle"] = nil }
        // Every remaining entry is short, so encoding cannot fail; an empty record is valid too.
        return (try? BonjourTXTRecord.encode(pairs)) ?? [0]
    }
}

/// An agent found on the local network, with the address its service resolved to.
package struct NetworkAgent: Sendable, Hashable {
    /// The Bonjour service name (unique on the network; the system renames on conflict).
    package var serviceName: String
    /// What its TXT record says.
    package var advert: NetworkAgentAdvert
    /// Where it listens.
    package var endpoint: Endpoint

    /// A found agent.
    package init(serviceName: String, advert: NetworkAgentAdvert, endpoint: Endpoint) {
        self.serviceName = serviceName
        self.advert = advert
        self.endpoint = endpoint
    }

    /// Whether `selector` (as `--agent` takes it) names this agent: its service name, its
    /// name or its bundle id.
    package func matches(_ selector: String) -> Bool {
        selector == serviceName || selector == advert.name || (advert.bundleID.map { $0 == selector } ?? false)
    }
}
