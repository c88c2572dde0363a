import JarvisCore

/// The client's side of the version handshake.
extension ProtocolVersion {
    /// Refuses an agent whose major version differs from ours, in words that say what to do.
    package static func checkAgent(_ version: String?) throws(JarvisError) {
        guard let version else {
            throw JarvisError(.unavailable, "the agent did not say which protocol it speaks; is it a Jarvis agent?")
        }
        guard let theirs = major(of: version), theirs == major(of: current) else {
            throw JarvisError(
                .unavailable,
                "the agent speaks protocol \(version) and this client \(current); use a jarvis of the same major version as the agent"
            )
        }
    }
}
