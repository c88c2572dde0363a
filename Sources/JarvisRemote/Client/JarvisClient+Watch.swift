import JarvisCore

/// Watching: subscribe, read `changed` notifications, unsubscribe.
extension JarvisClient {
    /// What the agent answered to `watch`.
    public struct Subscription: Sendable, Hashable {
        /// Pass it to ``unwatch(_:)``; notifications carry it.
        public var id: String
        /// The agent's latest sequence number when the subscription started.
        public var sequence: Int64
        /// With `since`: true when the missed changes follow, false when they are lost and the
        /// client must list again. Nil without `since`.
        public var resumed: Bool?
    }

    /// Starts receiving `changed` notifications for the matching items (patterns are globs).
    /// - Parameter since: resume after this sequence number (the last one seen).
    /// - Throws: ``JarvisError``, e.g. `.notFound` for an unknown scanner.
    public func watch(
        scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false, since: Int64? = nil
    ) throws(JarvisError) -> Subscription {
        var params = JSONObject()
        if let scanner { params["scanner"] = .string(scanner) }
        if let container { params["container"] = .string(container) }
        if let key { params["key"] = .string(key) }
        if reveal { params["reveal"] = true }
        if let since { params["since"] = .number(JSONNumber(since)) }
        let result = try call("watch", params)
        guard let id = result["subscription"]?.stringValue, let sequence = result["sequence"]?.int64Value else {
            throw JarvisError(.storage, "the agent answered watch without subscription and sequence")
        }
        return Subscription(id: id, sequence: sequence, resumed: result["resumed"]?.boolValue)
    }

    /// Stops a subscription; no notification for it arrives after this returns.
    public func unwatch(_ id: String) throws(JarvisError) {
        _ = try call("unwatch", ["subscription": .string(id)])
    }

    /// The next `changed` notification, waiting up to `timeout` (nil: for ever); nil when none
    /// came in time. Other notifications are skipped.
    /// - Throws: ``JarvisError`` `.unavailable` when the agent closed the connection.
    public func nextChange(timeout: Duration?) throws(JarvisError) -> ChangeNotification? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let left = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            guard let (method, params) = try nextNotification(timeout: left) else { return nil }
            if method == "changed" { return try ChangeNotification(params: params) }
        }
    }
}
