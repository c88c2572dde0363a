import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

/// What an intent answers.
enum WebAnswer: Sendable {
    /// The page's view after the intent.
    case view(WebView)
    /// A window of a value's members (`members`).
    case members(WebMembers)
    /// The request is no intent the page's server knows (status 400).
    case refused(WebFailure)

    /// The answer as the page reads it.
    var json: JSONValue {
        switch self {
        case .view(let view): WebEncoder.encode(view)
        case .members(let members): WebEncoder.encode(members)
        case .refused(let failure): WebEncoder.encode(failure)
        }
    }
}

extension WebPageState {
    /// Does what the user asked; answers with the new view, or for `members` a window of
    /// them. A request that is no intent is refused; an intent the model refuses is answered
    /// with the view, its message saying why where the user acted.
    mutating func handle(_ request: JSONValue) -> WebAnswer {
        let intent: WebIntent
        do throws(JarvisError) {
            intent = try WebIntent(parsing: request)
        } catch {
            return .refused(WebFailure(error: error.message))
        }
        do throws(JarvisError) {
            if let members = try perform(intent) { return .members(members) }
        } catch {
            message = InspectorMessage(error.message, .error)
        }
        return .view(view())
    }

    private mutating func perform(_ intent: WebIntent) throws(JarvisError) -> WebMembers? {
        // A message answers one action; the next action clears it.
        if ![.check, .members, .zone].contains(intent.name) { message = nil }
        switch intent {
        case .agent(let id):
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            reset(keepingScope: false)
            close()
            connect(id)
            if let connectProblem { throw JarvisError(.unavailable, connectProblem) }
        case .scope(let scanner, let container):
            scope = (scanner, container)
            selected = nil
            bulk = nil
            tableDirty = true
        case .filter(let text):
            filter = InspectorFilter(text)
            bulk = nil
            rowsDirty = true  // the table's rows stay; only the filter runs again
        case .chip(let id, let on):
            guard let chip = InspectorChip(id: id) else { throw JarvisError(.invalidParams, "no such filter chip") }
            if on ?? !chips.contains(chip) { chips.insert(chip) } else { chips.remove(chip) }
            bulk = nil
            tableDirty = true
        case .sort(let column):
            sort = sort.clicked(column)
            tableDirty = true
        case .open(let target):
            if let draft, draft.address != target.address || draft.pointer != target.pointer {
                throw JarvisError(.invalidParams, "save or cancel the edit of \(draft.title) first")
            }
            selected = target
        case .close:
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            selected = nil
        case .members(let target, let start):
            guard let state = connection?.session.state, let address = target.address else {
                return WebMembers(members: [], from: 0, more: 0)
            }
            // A window of members at a time: a dictionary of 100,000 keys never reaches the page whole.
            let rows = state.rows(.value(address, target.pointer), previewLimit: 120)
            let from = max(0, min(rows.count, start))
            let window = rows[from...].prefix(Self.membersWindow)
            return WebMembers(members: window.map(WebRow.init), from: from, more: rows.count - from - window.count)
        case .edit(let chosen, let zone):
            guard let target = chosen ?? selected else { throw JarvisError(.invalidParams, "the request names no key") }
            let session = try liveSession()
            start(try session.draft(for: target), zone: zone)
            selected = target
        case .quickEdit(let target, let kind):
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
        case .addElement(let target, let zone):
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            start(try liveSession().appendDraft(to: target), zone: zone)
            selected = target
        case .replace(let target):
            guard let address = target.address, target.pointer.isWhole else {
                throw JarvisError(.invalidParams, "choose a secret")
            }
            let session = try liveSession()
            start(try session.replacementDraft(for: address), zone: nil)
            selected = target
        case .check(let field):
            guard let draft else { return nil }
            // A date the field cannot name is the problem itself (`typed` recorded it).
            guard let text = try? typed(field) else { return nil }
            draftProblem = try liveSession().problem(draft, text: text)
        case .zone(let zone, let field):
            guard let draft, draft.editor == .date else { return nil }
            _ = try DateEditing.zone(zone)
            // What the field holds is read in the zone it was typed in, then shown in the new one.
            if let text = try? typed(field) { draftText = text }
            draftZone = zone
        case .save(let field, let confirmed):
            guard let text = try typed(field) else { throw JarvisError(.invalidParams, "nothing is being edited") }
            try save(text, confirmed: confirmed)
        case .unask:
            asking = false
        case .cancel:
            draft = nil
            draftProblem = nil
            conflict = nil
            asking = false
        case .keepTheirs:
            guard let draft else { throw JarvisError(.invalidParams, "no conflict to resolve") }
            message = InspectorConflict.keptTheirs(draft)
            self.draft = nil
            conflict = nil
            asking = false
        case .writeMine:
            guard draft != nil, conflict != nil else { throw JarvisError(.invalidParams, "no conflict to resolve") }
            try save(draftText, confirmed: true)
        case .delete(let target):
            let session = try liveSession()
            let now = try session.delete(target)
            message = InspectorMessage.deleted(target, now: now)
            if now == nil {
                if target.pointer.isWhole {
                    selected = nil
                } else if case .member(let address, let pointer) = target {
                    selected =
                        pointer.tokens.count > 1
                        ? .member(address, JSONPointer(tokens: Array(pointer.tokens.dropLast()))) : .key(address)
                }
            }
        case .deletePreview:
            guard canEdit, let state = connection?.session.state else { throw readOnly() }
            // Exactly the rows the filter shows, each at the revision it has now (the model's decision).
            bulk = state.deletion(of: Array(currentRows(now: .now)))
        case .deleteFiltered:
            guard let deletion = bulk else { throw JarvisError(.invalidParams, "preview what the filter shows first") }
            let session = try liveSession()
            let outcome = try session.delete(deletion)
            bulk = nil
            selected = nil
            message = outcome.message
        case .bulkCancel:
            bulk = nil
        case .reset(let target):
            guard let address = target.address else { throw JarvisError(.invalidParams, "choose a key") }
            let session = try liveSession()
            message = InspectorMessage.reset(address, now: try session.reset(address))
        case .reveal(let target):
            guard let address = target.address else { throw JarvisError(.invalidParams, "choose a key") }
            let session = try liveSession()
            try session.reveal(address)
            selected = .key(address)
        case .addStart:
            guard canEdit else { throw readOnly() }
            adding = true
        case .addCancel:
            adding = false
        case .addCreate(let scanner, let container, let key, let type, let zone):
            let session = try liveSession()
            let fresh = try session.newDraft(scanner: scanner, container: container, key: key, type: type)
            adding = false
            start(fresh, zone: zone)
            selected = nil
        case .revert(let id):
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            guard case .success(let entries)? = timeline?.entries, let entry = entries.first(where: { $0.id == id })
            else { throw JarvisError(.invalidParams, "that change is not in the key's timeline any more") }
            let session = try liveSession()
            do {
                message = try session.revert(entry)
            } catch {
                // A conflict's message shows the value it would restore and the value there now.
                message = .refused(entry.revertLabel.lowercased(), error)
            }
            timeline = nil
        case .undo, .redo:
            guard draft == nil else { throw JarvisError(.invalidParams, "save or cancel the edit first") }
            message = try liveSession().undo(redo: intent == .redo)
        default:
            // The comparisons (`WebPageState+Compare.swift`).
            _ = try performCompare(intent)
        }
        // A change made here offers to take it back, beside what it says (the model's rule).
        if intent.changesStorage, let told = message { message = told.offeringUndo(canEdit: canEdit) }
        return nil
    }

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
    private mutating func typed(_ field: WebIntent.Typed) throws(JarvisError) -> String? {
        guard let draft else { return nil }
        guard draft.editor == .date, let local = field.local else { return field.text ?? draftText }
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
