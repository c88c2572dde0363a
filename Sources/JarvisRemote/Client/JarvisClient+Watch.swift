import JarvisCore

/// Watching: subscribe, read `changed` notifications, unsubscribe.
extension JarvisClient {
    /// What the agent answered to `watch`.
    public typealias Subscription = Wire.WatchResult

    /// Starts receiving `changed` notifications for the matching items (patterns are globs).
    /// - Parameter since: resume after this sequence number (the last one seen).
    /// - Throws: ``JarvisError``, e.g. `.notFound` for an unknown scanner.
    public func watch(
        scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false, since: Int64? = nil
    ) throws(JarvisError) -> Subscription {
        try watch(Wire.WatchParams(scanner: scanner, container: container, key: key, reveal: reveal, since: since))
    }

    /// Starts receiving `changed` notifications for what `params` matches.
    public func watch(_ params: Wire.WatchParams) throws(JarvisError) -> Subscription {
        try call(params)
    }

    /// Stops a subscription; no notification for it arrives after this returns.
    public func unwatch(_ id: String) throws(JarvisError) {
        _ = try call(Wire.UnwatchParams(subscription: id), expecting: Wire.UnwatchResult.self)
    }

    /// The next `changed` notification, waiting up to `timeout` (nil: for ever); nil when none
    /// came in time. Other notifications are skipped.
    /// - Throws: ``JarvisError`` `.unavailable` when the agent closed the connection.
    public func nextChange(timeout: Duration?) throws(JarvisError) -> ChangeNotification? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let left = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            guard let (method, params) = try nextNotification(timeout: left) else { return nil }
            if method == ChangeNotification.method { return try ChangeNotification(params: params) }
        }
    }
}
