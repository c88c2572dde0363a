import JarvisCore

/// `get`, `set`, `delete` and `reset`, with JSON Pointers and bulk deletes.
extension AgentService {
    func get(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(raw, method: "get", allowed: ["scanner", "container", "key", "pointer", "reveal"])
        let address = try address(params)
        let reveal = try params.bool("reveal")
        let item: PreferenceItem
        if let pointer = try pointer(params) {
            item = try hub.get(address, pointer: pointer, reveal: reveal)
        } else {
            item = try hub.get(address, reveal: reveal)
        }
        if reveal { recordReveals([item], session: session) }
        return .object(["item": WireItem.encode(item)])
    }

    func set(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(
            raw, method: "set",
            allowed: ["scanner", "container", "key", "pointer", "type", "value", "expectedRevision"])
        let address = try address(params)
        guard let rawValue = params.value("value") else {
            throw RPCError.invalidParams("set needs the param 'value'")
        }
        let value: PreferenceValue
        if let type = try params.type("type") {
            value = try PreferenceValue(json: rawValue, as: type)
        } else {
            value = try PreferenceValue(json: rawValue)
        }
        let expected = try params.optionalString("expectedRevision").map(Revision.init)
        let pointer = try pointer(params)
        let stored = try recordingWrite(.set, at: address, session: session) { () throws(JarvisError) in
            if let pointer {
                return try hub.set(address, pointer: pointer, to: value, expectedRevision: expected)
            }
            return try hub.set(address, to: value, expectedRevision: expected)
        }
        return .object(["item": WireItem.encode(stored.noting(roundingOf: value))])
    }

    func delete(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(
            raw, method: "delete",
            allowed: ["scanner", "container", "key", "pointer", "match", "dryRun", "expectedRevision"])
        if let match = try params.optionalString("match") {
            return try deleteMatching(GlobPattern(match), params: params, session: session)
        }
        if try params.bool("dryRun") {
            throw RPCError.invalidParams("dryRun goes with match (a key pattern); a single delete has no dry run")
        }
        let address = try address(params)
        let expected = try params.optionalString("expectedRevision").map(Revision.init)
        if let pointer = try pointer(params) {
            // Removing inside a value changes it: recorded as a set of the whole key.
            let changed = try recordingWrite(.set, at: address, session: session) { () throws(JarvisError) in
                try hub.delete(address, pointer: pointer, expectedRevision: expected)
            }
            return .object(["item": WireItem.encode(changed)])
        }
        let removed = try recordingWrite(.delete, at: address, session: session) { () throws(JarvisError) in
            try hub.delete(address, expectedRevision: expected)
        }
        return .object(["item": WireItem.encode(removed)])
    }

    func reset(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(raw, method: "reset", allowed: ["scanner", "container", "key", "expectedRevision"])
        let address = try address(params)
        let expected = try params.optionalString("expectedRevision").map(Revision.init)
        let result = try hub.reset(address, expectedRevision: expected)
        if let removed = result.removed {
            audit.record(
                AuditRecord(
                    action: .delete, client: session.auditClient, address: removed.address,
                    oldRevision: removed.revision, newRevision: nil))
        }
        var object: JSONObject = [:]
        if let removed = result.removed { object["removed"] = WireItem.encode(removed) }
        if let current = result.current { object["item"] = WireItem.encode(current) }
        return .object(object)
    }

    private func deleteMatching(_ pattern: GlobPattern, params: Params, session: AgentSessionState) throws -> JSONValue
    {
        for refused in ["key", "pointer", "expectedRevision"] where params.value(refused) != nil {
            throw RPCError.invalidParams(
                "delete takes either 'key' or 'match', and '\(refused)' does not go with 'match'")
        }
        let container = try params.string("container")
        let scanner = try params.optionalString("scanner") ?? (try owner(of: container))
        let dryRun = try params.bool("dryRun")
        let items = try hub.delete(matching: pattern, scanner: scanner, container: container, dryRun: dryRun)
        if !dryRun {
            for item in items {
                audit.record(
                    AuditRecord(
                        action: .delete, client: session.auditClient, address: item.address,
                        oldRevision: item.revision, newRevision: nil))
            }
        }
        return .object([
            "scanner": .string(scanner), "container": .string(container), "match": .string(pattern.description),
            "dryRun": .bool(dryRun), "count": .number(JSONNumber(items.count)),
            "keys": .array(items.map { .string($0.address.key) }),
        ])
    }

    private func owner(of container: String) throws -> String {
        try address(
            Params(["container": .string(container), "key": ""], method: "delete", allowed: ["container", "key"])
        ).scanner
    }

    private func pointer(_ params: Params) throws -> JSONPointer? {
        guard let text = try params.optionalString("pointer"), !text.isEmpty else { return nil }
        do {
            return try JSONPointer(parsing: text)
        } catch {
            throw RPCError.invalidParams(error.message)
        }
    }
}
