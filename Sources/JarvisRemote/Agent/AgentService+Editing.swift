import JarvisCore

/// `get`, `set`, `delete` and `reset`, with JSON Pointers and bulk deletes. Every write is one
/// hub transaction, and its audit records come from what that transaction changed.
extension AgentService {
    func get(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        Wire.ItemResult(try get(Wire.GetParams(params: raw), session: session)).json
    }

    /// The answer line to a `get` read as a flat request: the item written straight into it.
    func answerGet(_ params: Wire.GetParams, id: JSONValue, session: AgentSessionState) -> [UInt8] {
        do {
            return Self.itemAnswer(try get(params, session: session), id: id)
        } catch {
            return RPCResponse.failure(id: id, error: Self.rpcError(error))
        }
    }

    /// The answer line to a `get` read as a flat request, when its scanner serves the item from
    /// memory (``JarvisHub/getFromMemory(_:checkpoint:)``); nil when answering could wait on
    /// storage or another process (or reveals, and so audits), and the request must run off the loop.
    func answerGetFromMemory(_ params: Wire.GetParams, id: JSONValue, checkpoint: ChangeCheckpoint) -> [UInt8]? {
        guard let scanner = params.place.scanner, params.place.pointer == nil, !params.reveal,
            let item = hub.getFromMemory(
                PreferenceAddress(scanner: scanner, container: params.place.container, key: params.place.key),
                checkpoint: checkpoint),
            item.depthProblem == nil
        else { return nil }
        do {
            try refuseUnsendable(item)
        } catch {
            return RPCResponse.failure(id: id, error: Self.rpcError(error))
        }
        return Self.itemAnswer(item, id: id)
    }

    private static func itemAnswer(_ item: PreferenceItem, id: JSONValue) -> [UInt8] {
        RPCResponse.success(id: id) { line in
            JSONWriter.writeRaw(Self.itemResultStart, into: &line)
            WireItem.write(item, into: &line)
            line.append(UInt8(ascii: "}"))
        }
    }

    /// What ``Wire/ItemResult`` writes before its item.
    private static let itemResultStart: StaticString = #"{"item":"#

    /// The item a `get` answers with, its reveal audited.
    private func get(_ params: Wire.GetParams, session: AgentSessionState) throws -> PreferenceItem {
        let address = try located(params.place, writing: false).address
        let item: PreferenceItem
        if let pointer = params.place.pointer {
            item = try hub.get(address, pointer: pointer, reveal: params.reveal)
        } else {
            item = try hub.get(address, reveal: params.reveal)
        }
        try refuseUnsendable(item)
        if params.reveal { recordReveals([item], session: session) }
        return try Self.servable(item)
    }

    /// Refuses an item whose answer could never be queued, before the answer is made: a value
    /// larger than the whole output budget costs no copy of itself (48 clients asking a 15 MiB
    /// value kept every work thread writing answers that were then refused).
    private func refuseUnsendable(_ item: PreferenceItem) throws {
        guard let limit = maxAnswerBytes, let value = item.value else { return }
        let size = value.minimumJSONBytes(countingPast: limit)
        if size > limit { throw RPCError.answerTooLarge(size: size, limit: limit, atLeast: true) }
    }

    func set(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.SetParams(params: raw)
        let (address, known) = try located(params.place, creating: params.place.pointer == nil)
        let value = try params.decodedValue()
        try value.checkDepth(below: params.place.pointer?.tokens.count ?? 0)
        let edit: JarvisHub.Edit = params.place.pointer.map { .setInside($0, value) } ?? .set(value)
        let origin = try writeOrigin(params.change, at: address, putting: value, session: session)
        let outcome = try hub.write(
            address, edit, expectedRevision: params.expectedRevision, known: known, origin: origin)
        record(outcome, as: .set, session: session, pointer: params.place.pointer)
        let stored = try JarvisHub.answer(outcome.item, for: address)
        return Wire.ItemResult(stored.noting(roundingOf: value)).json
    }

    func delete(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try WireFields(
            params: raw, method: .delete,
            allowed: [
                "scanner", "container", "key", "pointer", "match", "undeclared", "dryRun", "expectedRevision", "change",
                "rollback",
            ])
        let undeclared = try params.optionalBool("undeclared") ?? false
        if params["match"] != nil || undeclared {
            return try deleteKeys(Wire.BulkDeleteParams(params), session: session)
        }
        if try params.optionalBool("dryRun") ?? false {
            throw RPCError.invalidParams(
                "dryRun goes with match (a key pattern) or undeclared; a single delete has no dry run")
        }
        let single = try Wire.DeleteParams(params)
        let (address, known) = try located(single.place)
        // Removing inside a value changes it: recorded as a set of the whole key.
        let pointer = single.place.pointer
        let origin = try writeOrigin(single.change, at: address, putting: nil, session: session)
        let outcome = try hub.write(
            address, pointer.map { .deleteInside($0) } ?? .delete, expectedRevision: single.expectedRevision,
            known: known, origin: origin)
        record(outcome, as: pointer == nil ? .delete : .set, session: session, pointer: pointer)
        return Wire.ItemResult(try JarvisHub.answer(outcome.item, for: address)).json
    }

    /// Who a write is from, for the journal, and the change of several writes it belongs to:
    /// with `rollback`, it must put back (`value`; nil for a removal) this connection's write
    /// of the key in that change, which then stands as never made.
    private func writeOrigin(
        _ change: Wire.ChangeParams, at address: PreferenceAddress, putting value: PreferenceValue?,
        session: AgentSessionState
    ) throws -> WriteOrigin {
        var origin = session.writeOrigin
        guard let name = change.change else { return origin }
        guard change.rollback else {
            origin.group = session.changes.group(named: name)
            return origin
        }
        let place = "'\(address.key)' in '\(address.container)'"
        guard let group = session.changes.existing(named: name),
            let entry = group.entry(at: address), !entry.isRollback,
            hub.journal.entry(entry.id).map({ $0.undoneBy == nil }) ?? false
        else {
            throw RPCError.invalidParams(
                "rollback puts back this connection's write of \(place) in change '\(name)', and that change holds none still standing; nothing was written")
        }
        guard entry.pointer == nil, entry.before == value else {
            throw RPCError.invalidParams(
                "rollback puts \(place) back as it was before this connection's write in change '\(name)' (entry \(entry.id)); \(value == nil ? "removing it" : "this value") is not that; nothing was written")
        }
        origin.group = group
        origin.action = .rollback
        origin.reverts = entry.id
        origin.undoHint = entry.undoHint
        return origin
    }

    func reset(_ raw: JSONObject, session: AgentSessionState) throws -> JSONValue {
        let params = try Wire.ResetParams(params: raw)
        let (address, known) = try located(params.place)
        let outcome = try hub.write(
            address, .reset, expectedRevision: params.expectedRevision, known: known, origin: session.writeOrigin)
        record(outcome, as: .delete, session: session)
        return Wire.ResetResult(removed: outcome.changes.first?.before, item: outcome.item).json
    }

    private func deleteKeys(_ params: Wire.BulkDeleteParams, session: AgentSessionState) throws -> JSONValue {
        let selection: JarvisHub.KeySelection = params.match.map { .matching(GlobPattern($0)) } ?? .undeclared
        let (address, known) = try located(Wire.Place(scanner: params.scanner, container: params.container, key: ""))
        var origin = session.writeOrigin
        if let name = params.change, !params.dryRun { origin.group = session.changes.group(named: name) }
        let outcome = try hub.write(
            address, .deleteKeys(selection, dryRun: params.dryRun), known: known, origin: origin)
        if !params.dryRun { record(outcome, as: .delete, session: session) }
        var pattern: String?
        if case .matching(let glob) = selection { pattern = glob.description }
        return Wire.BulkDeleteResult(
            scanner: address.scanner, container: address.container, match: pattern, undeclared: params.undeclared,
            dryRun: params.dryRun, keys: outcome.items.map(\.address.key)
        ).json
    }
}
