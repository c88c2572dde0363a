import JarvisCore
import JarvisInspector
import JarvisRemote

extension WebPage {
    /// Does what the user asked; returns the new view (and, for some intents, more).
    ///
    /// Every decision goes through the model: the session refuses what may not be done, and
    /// its message is shown where the user acted.
    func handle(_ request: JSONValue) -> JSONValue {
        guard let intent = request["intent"]?.stringValue else {
            return WebJSON.object([("error", "the request names no intent")])
        }
        var extra: [(String, JSONValue)] = []
        do throws(JarvisError) {
            extra = try perform(intent, request)
        } catch {
            message = (error.message, "error")
        }
        guard case .object(var object) = view() else { return .null }
        for (name, value) in extra { object[name] = value }
        return .object(object)
    }

    private func perform(_ intent: String, _ request: JSONValue) throws(JarvisError) -> [(String, JSONValue)] {
        // A message answers one action; the next action clears it.
        if intent != "check" && intent != "members" { message = nil }
        switch intent {
        case "agent":
            guard let id = request["id"]?.stringValue else { throw JarvisError(.invalidParams, "choose an agent") }
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            reset(keepingScope: false)
            close()
            connect(id)
            if let connectProblem { throw JarvisError(.unavailable, connectProblem) }
        case "scope":
            scope = (request["scanner"]?.stringValue, request["container"]?.stringValue)
            selected = nil
            bulk = nil
            rowsDirty = true
        case "filter":
            filter = InspectorFilter(request["text"]?.stringValue ?? "")
            bulk = nil
            rowsDirty = true
        case "chip":
            guard let id = request["id"]?.stringValue, let chip = InspectorChip(id: id) else {
                throw JarvisError(.invalidParams, "no such filter chip")
            }
            if request["on"]?.boolValue ?? !chips.contains(chip) { chips.insert(chip) } else { chips.remove(chip) }
            bulk = nil
            rowsDirty = true
        case "open":
            let target = try WebJSON.target(from: request["target"])
            if let draft, draft.address != target.address || draft.pointer != target.pointer {
                throw JarvisError(.invalidParams, "save or cancel the edit of \(draft.title) first")
            }
            selected = target
        case "close":
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            selected = nil
        case "members":
            let target = try WebJSON.target(from: request["target"])
            guard let state = connection?.session.state, let address = target.address else { return [] }
            let rows = state.rows(.value(address, target.pointer), previewLimit: 120)
            return [("members", .array(rows.prefix(2000).map { WebJSON.row($0) })), ("more", WebJSON.int(max(0, rows.count - 2000)))]
        case "edit":
            let target = try WebJSON.target(from: request["target"] ?? selected.map(WebJSON.target))
            let session = try liveSession()
            let fresh = try session.draft(for: target)
            selected = target
            draft = fresh
            draftText = fresh.text
            draftError = nil
            conflict = nil
        case "check":
            guard let draft else { return [] }
            draftText = request["text"]?.stringValue ?? ""
            do throws(JarvisError) {
                _ = try draft.value(from: draftText)
                draftError = nil
            } catch {
                draftError = error.message
            }
        case "save":
            try save(request["text"]?.stringValue ?? draftText)
        case "cancel":
            draft = nil
            draftError = nil
            conflict = nil
            conflictYours = nil
        case "keepTheirs":
            draft = nil
            conflict = nil
            conflictYours = nil
            message = ("kept their value; your edit was not written", "info")
        case "writeMine":
            guard let draft, let yours = conflictYours else { throw JarvisError(.invalidParams, "no conflict to resolve") }
            let session = try liveSession()
            let target: InspectorRow.Target = draft.pointer.isWhole ? .key(draft.address) : .member(draft.address, draft.pointer)
            var fresh = try session.draft(for: target)
            fresh.isNew = false
            self.draft = fresh
            conflict = nil
            conflictYours = nil
            try save(yours)
        case "delete":
            let target = try WebJSON.target(from: request["target"])
            let session = try liveSession()
            if let now = try session.delete(target) {
                message = ("\(now.address.key) changed before the delete arrived; nothing was deleted", "error")
            } else {
                message = ("deleted " + (target.pointer.isWhole ? target.address?.key ?? "" : (target.address?.key ?? "") + target.pointer.description), "info")
                if target.pointer.isWhole {
                    selected = nil
                } else if case .member(let address, let pointer) = target {
                    selected = pointer.tokens.count > 1 ? .member(address, JSONPointer(tokens: Array(pointer.tokens.dropLast()))) : .key(address)
                }
            }
        case "deletePreview":
            guard canEdit, let state = connection?.session.state else { throw readOnly() }
            // Exactly the rows the filter shows, each at the revision it has now (the model's decision).
            bulk = state.deletion(of: currentRows(now: .now))
        case "deleteFiltered":
            guard let deletion = bulk else { throw JarvisError(.invalidParams, "preview what the filter shows first") }
            let session = try liveSession()
            let outcome = try session.delete(deletion)
            bulk = nil
            selected = nil
            message = (outcome.message.text, outcome.message.kind.rawValue)
        case "bulkCancel":
            bulk = nil
        case "reset":
            let target = try WebJSON.target(from: request["target"])
            guard let address = target.address else { throw JarvisError(.invalidParams, "choose a key") }
            let session = try liveSession()
            try session.reset(address)
            message = ("\(address.key) is back to its default", "info")
        case "reveal":
            let target = try WebJSON.target(from: request["target"])
            guard let address = target.address else { throw JarvisError(.invalidParams, "choose a key") }
            let session = try liveSession()
            try session.reveal(address)
            selected = .key(address)
        case "addStart":
            guard canEdit else { throw readOnly() }
            adding = true
        case "addCancel":
            adding = false
        case "addCreate":
            guard let scanner = request["scanner"]?.stringValue, let container = request["container"]?.stringValue,
                let key = request["key"]?.stringValue, let typeName = request["type"]?.stringValue,
                let type = PreferenceType(rawValue: typeName)
            else { throw JarvisError(.invalidParams, "name the container, the key and its type") }
            let session = try liveSession()
            let fresh = try session.newDraft(scanner: scanner, container: container, key: key, type: type)
            adding = false
            draft = fresh
            draftText = fresh.text
            draftError = nil
            selected = nil
        case "reload":
            let session = try liveSession()
            try session.load()
            rowsDirty = true
        default:
            throw JarvisError(.invalidParams, "unknown intent '\(intent)'")
        }
        return []
    }

    private func save(_ text: String) throws(JarvisError) {
        guard let draft else { throw JarvisError(.invalidParams, "nothing is being edited") }
        let session = try liveSession()
        draftText = text
        do throws(JarvisError) {
            _ = try draft.value(from: text)
        } catch {
            draftError = error.message
            return
        }
        switch try session.save(draft, text: text) {
        case .saved(let item):
            self.draft = nil
            draftError = nil
            conflictYours = nil
            selected = draft.pointer.isWhole ? .key(item.address) : .member(item.address, draft.pointer)
            message = (
                "saved \(draft.title)" + (item.notes.isEmpty ? "" : " (" + item.notes.joined(separator: "; ") + ")"), "info"
            )
        case .conflict(let now):
            let theirs: String
            if let now, let value = now.value {
                theirs = ValueFormat.editText((try? draft.pointer.value(in: value)) ?? value)
            } else {
                theirs = now == nil ? "(the key was removed)" : "(a value that cannot be shown)"
            }
            conflictYours = text
            conflict = WebJSON.object([
                ("title", .string(draft.title)), ("base", .string(draft.text)), ("theirs", .string(theirs)),
                ("yours", .string(text)),
            ])
            message = ("\(draft.title) changed while you edited it; nothing was written", "error")
        }
    }

    private func liveSession() throws(JarvisError) -> InspectorSession {
        guard let connection else { throw JarvisError(.unavailable, connectProblem ?? "no agent is open") }
        if isGone { throw JarvisError(.unavailable, "the agent is gone; waiting for it to come back (nothing is lost)") }
        return connection.session
    }

    private func readOnly() -> JarvisError {
        guard let state = connection?.session.state else { return JarvisError(.unavailable, "no agent is open") }
        if isGone { return JarvisError(.unavailable, "the agent is gone; waiting for it to come back") }
        return JarvisError(.readOnly, InspectorSession.readOnlyMessage(state))
    }

    private func reset(keepingScope: Bool) {
        if !keepingScope { scope = (nil, nil) }
        selected = nil
        draft = nil
        conflict = nil
        conflictYours = nil
        bulk = nil
        adding = false
        rowsDirty = true
    }
}
