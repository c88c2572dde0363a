import JarvisCore

/// `watch` and `unwatch`: live change notifications (see the Watch section of docs/PROTOCOL.md).
extension AgentService {
    func watch(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.WatchParams(params: raw)
        guard let sink = session.watch.sink else {
            throw RPCError.invalidRequest("watch needs a connection that can receive notifications")
        }
        let filter = ChangeEngine.Filter(
            scanner: params.scanner, container: params.container.map { GlobPattern($0) },
            key: params.key.map { GlobPattern($0) }, reveal: params.reveal,
            revealed: { [weak self] items in self?.recordRevealed(items, session: session) })
        let since = params.since
        if filter.reveal, !hub.configuration.revealEnabled {
            throw JarvisHub.revealRefused(hub.configuration)
        }
        if let scanner = filter.scanner, !hub.enabledScannerIDs().contains(scanner) {
            throw JarvisError.noScanner(scanner)
        }
        guard session.watch.count < WatchSession.maxSubscriptions else {
            throw JarvisError(
                .tooLarge,
                "this connection already has \(WatchSession.maxSubscriptions) subscriptions; unwatch one first")
        }
        let subscribed = engine.subscribe(filter, since: since, sink: sink)
        session.watch.added(subscribed.id, on: engine)
        return Wire.WatchResult(id: subscribed.id, sequence: subscribed.sequence, resumed: subscribed.resumed).json
    }

    func unwatch(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let id = try Wire.UnwatchParams(params: raw).subscription
        guard session.watch.remove(id) else {
            throw JarvisError(.notFound, "no subscription '\(id)' on this connection")
        }
        return Wire.UnwatchResult(unwatched: id).json
    }
}
