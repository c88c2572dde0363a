import JarvisCore

/// `get`, `set`, `delete` and `reset`, with JSON Pointers and bulk deletes.
extension AgentService {
    func get(_ raw: JSONObject) throws -> JSONValue {
        let params = try Params(raw, method: "get", allowed: ["scanner", "container", "key", "pointer", "reveal"])
        let address = try address(params)
        let reveal = try params.bool("reveal")
        if let pointer = try pointer(params) {
            return .object(["item": WireItem.encode(try hub.get(address, pointer: pointer, reveal: reveal))])
        }
        return .object(["item": WireItem.encode(try hub.get(address, reveal: reveal))])
    }

    func set(_ raw: JSONObject) throws -> JSONValue {
        let params = try Params(
            raw, method: "set", allowed: ["scanner", "container", "key", "pointer", "type", "value", "expectedRevision"])
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
        if let pointer = try pointer(params) {
            return .object(["item": WireItem.encode(try hub.set(address, pointer: pointer, to: value, expectedRevision: expected))])
        }
        return .object(["item": WireItem.encode(try hub.set(address, to: value, expectedRevision: expected))])
    }

    func delete(_ raw: JSONObject) throws -> JSONValue {
        let params = try Params(
            raw, method: "delete", allowed: ["scanner", "container", "key", "pointer", "match", "dryRun", "expectedRevision"])
        if let match = try params.optionalString("match") {
            return try deleteMatching(GlobPattern(match), params: params)
        }
        if try params.bool("dryRun") {
            throw RPCError.invalidParams("dryRun goes with match (a key pattern); a single delete has no dry run")
        }
        let address = try address(params)
        let expected = try params.optionalString("expectedRevision").map(Revision.init)
        if let pointer = try pointer(params) {
            return .object(["item": WireItem.encode(try hub.delete(address, pointer: pointer, expectedRevision: expected))])
        }
        return .object(["item": WireItem.encode(try hub.delete(address, expectedRevision: expected))])
    }

    func reset(_ raw: JSONObject) throws -> JSONValue {
        let params = try Params(raw, method: "reset", allowed: ["scanner", "container", "key", "expectedRevision"])
        let address = try address(params)
        let expected = try params.optionalString("expectedRevision").map(Revision.init)
        let result = try hub.reset(address, expectedRevision: expected)
        var object: JSONObject = [:]
        if let removed = result.removed { object["removed"] = WireItem.encode(removed) }
        if let current = result.current { object["item"] = WireItem.encode(current) }
        return .object(object)
    }

    private func deleteMatching(_ pattern: GlobPattern, params: Params) throws -> JSONValue {
        for refused in ["key", "pointer", "expectedRevision"] where params.value(refused) != nil {
            throw RPCError.invalidParams("delete takes either 'key' or 'match', and '\(refused)' does not go with 'match'")
        }
        let container = try params.string("container")
        let scanner = try params.optionalString("scanner") ?? (try owner(of: container))
        let dryRun = try params.bool("dryRun")
        let items = try hub.delete(matching: pattern, scanner: scanner, container: container, dryRun: dryRun)
        return .object([
            "scanner": .string(scanner), "container": .string(container), "match": .string(pattern.description),
            "dryRun": .bool(dryRun), "count": .number(JSONNumber(items.count)),
            "keys": .array(items.map { .string($0.address.key) }),
        ])
    }

    private func owner(of container: String) throws -> String {
        try address(Params(["container": .string(container), "key": ""], method: "delete", allowed: ["container", "key"])).scanner
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
