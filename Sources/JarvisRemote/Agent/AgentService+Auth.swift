import JarvisCore

/// The token check of `hello` on transports that need one (TCP).
extension AgentService {
    /// The answer to any request but `hello` before the token was presented.
    static let unauthenticated = RPCError(
        code: -32001,
        message: "this connection has not authenticated: send hello with the agent's token first "
            + "(jarvis --token, or JARVIS_TOKEN; the token is in the agent's discovery file and was printed when it started)",
        name: JarvisError.Code.unauthorized.rawValue)

    /// Accepts the connection or counts a failure; too many failures close it.
    func authenticate(_ session: AgentSessionState, token: String?) throws(RPCError) {
        guard session.requiredToken != nil else { return }
        guard session.authenticate(token: token) else {
            let detail = token == nil ? "hello needs the param 'token' on TCP" : "wrong token"
            throw RPCError(
                code: -32001,
                message: "\(detail): pass the agent's token (jarvis --token, or JARVIS_TOKEN); "
                    + "after \(AgentSessionState.maxAuthFailures) failures the connection is closed",
                name: JarvisError.Code.unauthorized.rawValue)
        }
    }
}
