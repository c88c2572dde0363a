import JarvisCore

/// How a face follows an agent that went away under it: it keeps showing what the agent last
/// had, offers no edit, tries to find the agent again by name (at most once per ``interval``),
/// and once it is back says what changed meanwhile.
///
/// A value the face keeps beside its session; the terminal, the panel and the page decide
/// "gone" and "try now" the same way. Finding the agent (by name, by address) is the face's.
public struct InspectorReconnection: Sendable, Hashable {
    /// How to find the agent again: what the user chose (`tcp://…`, a pid) or its name.
    public var selector: String
    /// Whether live updates ran when the session opened: only a session that was live can
    /// notice its agent going away.
    public var wasLive: Bool
    private var lastTry: ContinuousClock.Instant?

    /// The least time between two tries to find the agent again.
    public static let interval: Duration = .seconds(1)

    /// Follows a session just opened with `state`, found again with `selector`.
    public init(selector: String, state: InspectorState) {
        self.selector = selector
        wasLive = state.isLive
    }

    /// Whether the agent went away: live updates ran and ended.
    public func isGone(_ state: InspectorState) -> Bool {
        state.isGone || (wasLive && !state.isLive)
    }

    /// Whether an edit may be offered now: the agent allows it and is there.
    public func canEdit(_ state: InspectorState) -> Bool {
        state.canEdit && !isGone(state)
    }

    /// Whether to try to find the agent now; counts the try when it answers yes.
    public mutating func shouldTry(_ state: InspectorState, now: ContinuousClock.Instant) -> Bool {
        guard isGone(state) else { return false }
        if let lastTry, now - lastTry < Self.interval { return false }
        lastTry = now
        return true
    }
}

extension InspectorMessage {
    /// What a face says while its agent is gone: its name, why, and that what it last had
    /// stays visible while it is looked for by name.
    public static func agentGone(_ state: InspectorState) -> InspectorMessage {
        InspectorMessage(
            "\(state.hello.agent) is gone (\(state.liveProblem ?? "its connection ended")); showing what it last had, reconnecting by name",
            .warning)
    }

    /// The refusal of an action while the agent is gone.
    public static let waitingForAgent = InspectorMessage(
        "the agent is gone; waiting for it to come back (nothing is lost)", .error)

    /// What a face says when the agent is back: how many keys changed while it was gone, and
    /// which (the first few).
    public static func agentBack(changed: [PreferenceAddress]) -> InspectorMessage {
        guard !changed.isEmpty else { return InspectorMessage("the agent is back; nothing changed while it was gone") }
        let names = changed.prefix(3).map(\.key).joined(separator: ", ")
        let more = changed.count > 3 ? " (and \(changed.count - 3) more)" : ""
        return InspectorMessage(
            "the agent is back; \(changed.count) key\(changed.count == 1 ? "" : "s") changed while it was gone: \(names)\(more)",
            .warning)
    }
}
