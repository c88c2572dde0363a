import JarvisCore

/// `get`, `set`, `delete` and `reset`, with JSON Pointers and bulk deletes.
extension AgentService {
    func get(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.GetParams(params: raw)
        let address = try address(params.place)
        let item: PreferenceItem
        if let pointer = params.place.pointer {
            item = try hub.get(address, pointer: pointer, reveal: params.reveal)
        } else {
            item = try hub.get(address, reveal: params.reveal)
        }
        if params.reveal { recordReveals([item], session: session) }
        return Wire.ItemResult(try Self.servable(item)).json
    }

    func set(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.SetParams(params: raw)
        let address = try address(params.place)
        let value = try params.decodedValue()
        try value.checkDepth(below: params.place.pointer?.tokens.count ?? 0)
        let expected = params.expectedRevision
        let pointer = params.place.pointer
        let stored = try recordingWrite(.set, at: address, session: session) { () throws(JarvisError) in
            if let pointer {
                return try hub.set(address, pointer: pointer, to: value, expectedRevision: expected)
            }
            return try hub.set(address, to: value, expectedRevision: expected)
        }
        return Wire.ItemResult(stored).json
    }

    func delete(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(
            raw, method: "delete",
            allowed: ["scanner", "container", "key", "pointer", "match", "dryRun", "expectedRevision"])
        if let match = try params.optionalString("match") {
            return try deleteMatching(Wire.BulkDeleteParams(params, match: match), session: session)
        }
        if try params.bool("dryRun") {
            throw RPCError.invalidParams("dryRun goes with match (a key pattern); a single delete has no dry run")
        }
        let single = try Wire.DeleteParams(params)
        let address = try address(single.place)
        let expected = single.expectedRevision
        if let pointer = single.place.pointer {
            // Removing inside a value changes it: recorded as a set of the whole key.
            let changed = try recordingWrite(.set, at: address, session: session) { () throws(JarvisError) in
                try hub.delete(address, pointer: pointer, expectedRevision: expected)
            }
            return Wire.ItemResult(changed).json
        }
        let removed = try recordingWrite(.delete, at: address, session: session) { () throws(JarvisError) in
            try hub.delete(address, expectedRevision: expected)
        }
        return Wire.ItemResult(removed).json
    }

    func reset(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.ResetParams(params: raw)
        let address = try address(params.place)
        let result = try hub.reset(address, expectedRevision: params.expectedRevision)
        if let removed = result.removed {
            audit.record(
                AuditRecord(
                    action: .delete, client: session.auditClient, address: removed.address,
                    oldRevision: removed.revision, newRevision: nil))
        }
        return Wire.ResetResult(removed: result.removed, item: result.current).json
    }

    private func deleteMatching(_ params: Wire.BulkDeleteParams, session: AgentSessionState) throws -> JSONValue {
        let pattern = GlobPattern(params.match)
        let scanner = try params.scanner ?? (try address(Wire.Place(container: params.container, key: "")).scanner)
        let items = try hub.delete(
            matching: pattern, scanner: scanner, container: params.container, dryRun: params.dryRun)
        if !params.dryRun {
            for item in items {
                audit.record(
                    AuditRecord(
                        action: .delete, client: session.auditClient, address: item.address,
                        oldRevision: item.revision, newRevision: nil))
            }
        }
        return Wire.BulkDeleteResult(
            scanner: scanner, container: params.container, match: pattern.description, dryRun: params.dryRun,
            keys: items.map(\.address.key)
        ).json
    }
}
