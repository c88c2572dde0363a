import JarvisCore

/// `get`, `set`, `delete` and `reset`, with JSON Pointers and bulk deletes. Every write is one
/// hub transaction, and its audit records come from what that transaction changed.
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
        let (address, known) = try located(params)
        guard let rawValue = params.value("value") else {
            throw RPCError.invalidParams("set needs the param 'value'")
        }
        let value: PreferenceValue
        if let type = try params.type("type") {
            value = try PreferenceValue(json: rawValue, as: type)
        } else {
            value = try PreferenceValue(json: rawValue)
        }
        let edit: JarvisHub.Edit = try pointer(params).map { .setInside($0, value) } ?? .set(value)
        let outcome = try hub.write(address, edit, expectedRevision: try expectedRevision(params), known: known)
        record(outcome, as: .set, session: session)
        return .object(["item": WireItem.encode(try JarvisHub.answer(outcome.item, for: address))])
    }

    func delete(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(
            raw, method: "delete",
            allowed: [
                "scanner", "container", "key", "pointer", "match", "undeclared", "dryRun", "expectedRevision",
            ])
        let undeclared = try params.bool("undeclared")
        if let match = try params.optionalString("match") {
            guard !undeclared else {
                throw RPCError.invalidParams("delete takes 'match' or 'undeclared', not both")
            }
            return try deleteKeys(.matching(GlobPattern(match)), params: params, session: session)
        }
        if undeclared { return try deleteKeys(.undeclared, params: params, session: session) }
        if try params.bool("dryRun") {
            throw RPCError.invalidParams(
                "dryRun goes with match (a key pattern) or undeclared; a single delete has no dry run")
        }
        let (address, known) = try located(params)
        // Removing inside a value changes it: recorded as a set of the whole key.
        let pointer = try pointer(params)
        let outcome = try hub.write(
            address, pointer.map { .deleteInside($0) } ?? .delete, expectedRevision: try expectedRevision(params),
            known: known)
        record(outcome, as: pointer == nil ? .delete : .set, session: session)
        return .object(["item": WireItem.encode(try JarvisHub.answer(outcome.item, for: address))])
    }

    func reset(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Params(raw, method: "reset", allowed: ["scanner", "container", "key", "expectedRevision"])
        let (address, known) = try located(params)
        let outcome = try hub.write(address, .reset, expectedRevision: try expectedRevision(params), known: known)
        record(outcome, as: .delete, session: session)
        var object: JSONObject = [:]
        if let removed = outcome.changes.first?.before { object["removed"] = WireItem.encode(removed) }
        if let current = outcome.item { object["item"] = WireItem.encode(current) }
        return .object(object)
    }

    private func deleteKeys(_ selection: JarvisHub.KeySelection, params: Params, session: AgentSessionState) throws
        -> JSONValue
    {
        let name = params.value("match") != nil ? "match" : "undeclared"
        for refused in ["key", "pointer", "expectedRevision"] where params.value(refused) != nil {
            throw RPCError.invalidParams(
                "delete takes either 'key' or '\(name)', and '\(refused)' does not go with '\(name)'")
        }
        let (address, known) = try located(params, key: nil)
        let dryRun = try params.bool("dryRun")
        let outcome = try hub.write(address, .deleteKeys(selection, dryRun: dryRun), known: known)
        let (scanner, container) = (address.scanner, address.container)
        if !dryRun { record(outcome, as: .delete, session: session) }
        var result: JSONObject = [
            "scanner": .string(scanner), "container": .string(container), "dryRun": .bool(dryRun),
            "count": .number(JSONNumber(outcome.items.count)),
            "keys": .array(outcome.items.map { .string($0.address.key) }),
        ]
        switch selection {
        case .matching(let pattern): result["match"] = .string(pattern.description)
        case .undeclared: result["undeclared"] = true
        }
        return .object(result)
    }

    private func expectedRevision(_ params: Params) throws -> Revision? {
        try params.optionalString("expectedRevision").map(Revision.init)
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
