import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension WebPageState {
    /// Does what the user asked; returns the new view (and, for some intents, more).
    ///
    /// Every decision goes through the model: the session refuses what may not be done, and
    /// its message is shown where the user acted.
    mutating func handle(_ request: JSONValue) -> JSONValue {
        guard let intent = request["intent"]?.stringValue else {
            return WebJSON.object([("error", "the request names no intent")])
        }
        var extra: [(String, JSONValue)] = []
        do throws(JarvisError) {
            extra = try perform(intent, request)
        } catch {
            message = InspectorMessage(error.message, .error)
        }
        guard case .object(var object) = view() else { return .null }
        for (name, value) in extra { object[name] = value }
        return .object(object)
    }

    private mutating func perform(_ intent: String, _ request: JSONValue) throws(JarvisError) -> [(String, JSONValue)] {
        // A message answers one action; the next action clears it.
        if !["check", "members", "zone"].contains(intent) { message = nil }
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
            tableDirty = true
        case "filter":
            filter = InspectorFilter(request["text"]?.stringValue ?? "")
            bulk = nil
            rowsDirty = true  // the table's rows stay; only the filter runs again
        case "chip":
            guard let id = request["id"]?.stringValue, let chip = InspectorChip(id: id) else {
                throw JarvisError(.invalidParams, "no such filter chip")
            }
            if request["on"]?.boolValue ?? !chips.contains(chip) { chips.insert(chip) } else { chips.remove(chip) }
            bulk = nil
            tableDirty = true
        case "sort":
            guard let column = request["column"]?.stringValue.flatMap(InspectorSort.Column.init(rawValue:)) else {
                throw JarvisError(.invalidParams, "sort by key, type or value")
            }
            sort = sort.clicked(column)
            tableDirty = true
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
            // A window of members at a time: a dictionary of 100,000 keys never reaches the page whole.
            let rows = state.rows(.value(address, target.pointer), previewLimit: 120)
            let from = max(0, min(rows.count, request["from"]?.int64Value.map { Int(clamping: $0) } ?? 0))
            let window = rows[from...].prefix(Self.membersWindow)
            return [
                ("members", .array(window.map { WebJSON.row($0) })), ("from", WebJSON.int(from)),
                ("more", WebJSON.int(rows.count - from - window.count)),
            ]
        case "edit":
            let target = try WebJSON.target(from: request["target"] ?? selected.map(WebJSON.target))
            let session = try liveSession()
            start(try session.draft(for: target), zone: request["zone"]?.stringValue)
            selected = target
        case "quickEdit":
            let target = try WebJSON.target(from: request["target"])
            guard let kind = request["kind"]?.stringValue.flatMap(InspectorQuickEdit.init(rawValue:)) else {
                throw JarvisError(.invalidParams, "name the quick edit: toggle or nextChoice")
            }
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            let result = try liveSession().quickEdit(target, kind)
            selected = target
            message = result.outcome.message(result.draft)
            if let kept = result.kept {
                // As any conflicted save: the draft stays, with theirs and yours side by side.
                start(kept, zone: nil)
                draftText = result.text
                conflict = result.conflict
            }
        case "addElement":
            let target = try WebJSON.target(from: request["target"])
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            start(try liveSession().appendDraft(to: target), zone: request["zone"]?.stringValue)
            selected = target
        case "replace":
            let target = try WebJSON.target(from: request["target"])
            guard let address = target.address, target.pointer.isWhole else {
                throw JarvisError(.invalidParams, "choose a secret")
            }
            let session = try liveSession()
            start(try session.replacementDraft(for: address), zone: nil)
            selected = target
        case "check":
            guard let draft else { return [] }
            // A date the field cannot name is the problem itself (`typed` recorded it).
            guard let text = try? typed(request) else { return [] }
            draftProblem = try liveSession().problem(draft, text: text)
        case "zone":
            guard let draft, draft.editor == .date, let zone = request["zone"]?.stringValue else { return [] }
            _ = try DateEditing.zone(zone)
            // What the field holds is read in the zone it was typed in, then shown in the new one.
            if let text = try? typed(request) { draftText = text }
            draftZone = zone
        case "save":
            guard let text = try typed(request) else { throw JarvisError(.invalidParams, "nothing is being edited") }
            try save(text, confirmed: request["confirmed"]?.boolValue ?? false)
        case "unask":
            asking = false
        case "cancel":
            draft = nil
            draftProblem = nil
            conflict = nil
            asking = false
        case "keepTheirs":
            guard let draft else { throw JarvisError(.invalidParams, "no conflict to resolve") }
            message = InspectorConflict.keptTheirs(draft)
            self.draft = nil
            conflict = nil
            asking = false
        case "writeMine":
            guard draft != nil, conflict != nil else { throw JarvisError(.invalidParams, "no conflict to resolve") }
            try save(draftText, confirmed: true)
        case "delete":
            let target = try WebJSON.target(from: request["target"])
            let session = try liveSession()
            let now = try session.delete(target)
            message = InspectorMessage.deleted(target, now: now)
            if now == nil {
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
            message = outcome.message
        case "bulkCancel":
            bulk = nil
        case "reset":
            let target = try WebJSON.target(from: request["target"])
            guard let address = target.address else { throw JarvisError(.invalidParams, "choose a key") }
            let session = try liveSession()
            message = InspectorMessage.reset(address, now: try session.reset(address))
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
            start(fresh, zone: request["zone"]?.stringValue)
            selected = nil
        case "reload":
            let session = try liveSession()
            try session.load()
            tableDirty = true
        case "revert":
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            guard let id = request["id"]?.int64Value, case .success(let entries)? = timeline?.entries,
                let entry = entries.first(where: { $0.id == id })
            else { throw JarvisError(.invalidParams, "that change is not in the key's timeline any more") }
            let session = try liveSession()
            do {
                message = try session.revert(entry)
            } catch {
                // A conflict's message shows the value it would restore and the value there now.
                message = .refused(entry.revertLabel.lowercased(), error)
            }
            timeline = nil
            tableDirty = true
        case "undo", "redo":
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            message = try liveSession().undo(redo: intent == "redo")
            tableDirty = true
        default:
            throw JarvisError(.invalidParams, "unknown intent '\(intent)'")
        }
        // A change made here offers to take it back, beside what it says (the model's rule).
        if Self.changes.contains(intent), let told = message { message = told.offeringUndo(canEdit: canEdit) }
        return []
    }

    /// The intents that change what the agent stores.
    static let changes: Set<String> = ["save", "writeMine", "quickEdit", "delete", "deleteFiltered", "reset"]

    /// How many members of a dictionary or array one answer carries.
    static let membersWindow = 2000

    /// Opens an editor on `fresh`; a date editor shows its date in `zone` (the browser's).
    private mutating func start(_ fresh: ValueDraft, zone: String?) {
        draft = fresh
        draftText = fresh.text
        draftProblem = nil
        conflict = nil
        asking = false
        if let zone, TimeZone(identifier: zone) != nil { draftZone = zone }
    }

    /// The editor text a request carries: `text`, or for the date editor the `local` date
    /// and time read in the chosen zone (the model converts). Nil when nothing is edited.
    private mutating func typed(_ request: JSONValue) throws(JarvisError) -> String? {
        guard let draft else { return nil }
        guard draft.editor == .date, let local = request["local"]?.stringValue else {
            return request["text"]?.stringValue ?? draftText
        }
        do throws(JarvisError) {
            let text = try DateEditing.editText(local: local, zone: draftZone, previous: draftText)
            draftText = text
            return text
        } catch {
            draftProblem = InspectorFieldProblem(error.message)
            throw error
        }
    }

    /// Saves the draft: refused text stays in the editor with the model's reason beside it; a
    /// draft that asks a question (replacing a secret) asks it first; after a conflict the
    /// draft is written over the value stored now, as the model's conflict message says.
    private mutating func save(_ text: String, confirmed: Bool) throws(JarvisError) {
        guard var draft else { throw JarvisError(.invalidParams, "nothing is being edited") }
        let session = try liveSession()
        draftText = text
        if let problem = session.problem(draft, text: text) {
            draftProblem = problem
            return
        }
        draftProblem = nil
        if draft.confirmation != nil, !confirmed {
            asking = true
            return
        }
        asking = false
        if conflict != nil {
            draft = session.redraft(draft)
            self.draft = draft
        }
        let outcome = try session.save(draft, text: text, confirmed: confirmed)
        switch outcome {
        case .saved(let item):
            self.draft = nil
            conflict = nil
            selected = draft.pointer.isWhole ? .key(item.address) : .member(item.address, draft.pointer)
        case .conflict(let now):
            conflict = InspectorConflict(draft: draft, yours: text, now: now)
        }
        message = outcome.message(draft)
    }

    private mutating func liveSession() throws(JarvisError) -> InspectorSession {
        guard let connection else { throw JarvisError(.unavailable, connectProblem ?? "no agent is open") }
        if isGone { throw JarvisError(.unavailable, InspectorMessage.waitingForAgent.text) }
        return connection.session
    }

    private mutating func readOnly() -> JarvisError {
        guard let state = connection?.session.state else { return JarvisError(.unavailable, "no agent is open") }
        if isGone { return JarvisError(.unavailable, InspectorMessage.waitingForAgent.text) }
        return JarvisError(.readOnly, InspectorSession.readOnlyMessage(state))
    }

    private mutating func reset(keepingScope: Bool) {
        if !keepingScope { scope = (nil, nil) }
        selected = nil
        draft = nil
        conflict = nil
        asking = false
        bulk = nil
        adding = false
        tableDirty = true
    }
}
