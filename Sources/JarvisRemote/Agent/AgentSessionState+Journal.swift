import JarvisCore

extension AgentSessionState {
    /// Who this client is to the journal: its name and transport, as the audit trail has them.
    package var writeOrigin: WriteOrigin { WriteOrigin(client: auditClient) }
}
