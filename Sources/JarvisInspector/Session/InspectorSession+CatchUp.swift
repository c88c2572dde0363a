import JarvisCore

extension InspectorSession {
    /// After a session was opened again on an agent that came back: marks what changed since
    /// `before` (the state the face showed while it was gone) and returns what to say.
    public func catchUp(from before: InspectorState, now: ContinuousClock.Instant = .now) -> InspectorMessage {
        (try? update { (state: inout InspectorState) throws(JarvisError) in state.catchUp(from: before, now: now) })
            ?? .agentBack(changed: [])
    }
}
