import JarvisCore

/// `watch` and `unwatch`: live change notifications (see the Watch section of docs/PROTOCOL.md).
extension AgentService {
    func watch(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(raw, method: "watch", allowed: ["scanner", "container", "key", "reveal", "since"])
        guard let sink = session.watch.sink else {
            throw RPCError.invalidRequest("watch needs a connection that can receive notifications")
        }
        let filter = ChangeEngine.Filter(
            scanner: try params.optionalString("scanner"),
            container: try params.optionalString("container").map { GlobPattern($0) },
            key: try params.optionalString("key").map { GlobPattern($0) },
            reveal: try params.bool("reveal"))
        let since = try params.optionalInt("since", in: 0...Int(Int64.max - 1)).map(Int64.init)
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
        var result: JSONObject = [
            "subscription": .string(subscribed.id), "sequence": .number(JSONNumber(subscribed.sequence)),
        ]
        if let resumed = subscribed.resumed { result["resumed"] = .bool(resumed) }
        return .object(result)
    }

    func unwatch(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(raw, method: "unwatch", allowed: ["subscription"])
        let id = try params.string("subscription")
        guard session.watch.remove(id) else {
            throw JarvisError(.notFound, "no subscription '\(id)' on this connection")
        }
        return .object(["unwatched": .string(id)])
    }
}
