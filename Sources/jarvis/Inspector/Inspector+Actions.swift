import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension Inspector {
    /// Opens the edit prompt for a key or nested member, with the model's draft. In a
    /// read-only agent nothing is offered: the status says why.
    func beginEdit(_ target: InspectorRow.Target) {
        guard let session = connection?.session else { return }
        if let address = target.address, target.pointer.isWhole, session.state.row(for: address)?.isReplaceable == true
        {
            // The model refuses to start an edit from a mask; say which keys do what.
            let revealKey = session.state.canReveal ? "r reveals it to edit, " : ""
            status = ("\(address.key) is a masked secret: \(revealKey)R replaces it with a new one", .warning)
            return
        }
        do {
            let draft = try session.draft(for: target)
            mode = .prompt(
                Prompt(
                    purpose: .edit(draft), title: "edit \(draft.title) (\(draft.hint)); Enter saves, Esc cancels",
                    editor: LineEditor(draft.editor == .json ? oneLine(draft.text) : draft.text)))
        } catch {
            status = (error.message, .error)
        }
    }

    /// Opens the prompt that replaces a masked secret without showing it: refused empty,
    /// and sent only after a y/n question.
    func beginReplace(_ target: InspectorRow.Target) {
        guard let session = connection?.session else { return }
        guard case .key(let address) = target else {
            status = ("R replaces a whole masked secret; choose one", .warning)
            return
        }
        do {
            let draft = try session.replacementDraft(for: address)
            mode = .prompt(
                Prompt(
                    purpose: .edit(draft),
                    title:
                        "replace secret \(draft.title) (\(draft.hint)): type the new value; Enter asks first, Esc cancels",
                    editor: LineEditor(), secret: true))
        } catch {
            status = (error.message, .error)
        }
    }

    /// JSON typed on one line: the pretty text's line breaks go.
    private func oneLine(_ json: String) -> String {
        guard let parsed = try? JSONParser.parse(json) else { return json }
        return JSONWriter.string(parsed)
    }

    /// Opens the prompts for a new key in the container on screen.
    func beginNew() {
        guard let page = pages.last, let state = connection?.state else { return }
        guard state.canEdit else {
            status = (InspectorSession.readOnlyMessage(state), .error)
            return
        }
        let place: (String, String)
        switch page.level {
        case .list(.keys(let scanner, let container)): place = (scanner, container)
        case .list(.value(let address, _)), .detail(let address, _): place = (address.scanner, address.container)
        case .allKeys:
            guard let address = selectedRow()?.target.address else {
                status = ("choose a key: n adds beside it, in its container", .warning)
                return
            }
            place = (address.scanner, address.container)
        case .list(.containers):
            let rows = rows(for: page, width: terminal.size.columns)
            guard rows.indices.contains(page.cursor),
                case .container(let scanner, let name)? = rows[page.cursor].model?.target
            else {
                status = ("choose a container first", .warning)
                return
            }
            place = (scanner, name)
        default:
            status = ("open a container to add a key to it", .warning)
            return
        }
        mode = .prompt(
            Prompt(
                purpose: .newName(scanner: place.0, container: place.1),
                title: "new key in \(place.0):\(place.1): its name (Esc cancels)", editor: LineEditor()))
    }

    /// Space and Tab: the row's one-key change (a boolean's opposite, a catalogued choice's
    /// next value), saved at once with the revision it was read at.
    func quickEdit(_ kind: InspectorQuickEdit) {
        guard let session = connection?.session, let row = selectedRow() else {
            status = ("choose a key first", .warning)
            return
        }
        guard row.quickEdit == kind else {
            let state = session.state
            if !state.canEdit { return status = (InspectorSession.readOnlyMessage(state), .error) }
            return show(InspectorMessage.noQuickEdit(kind, row))
        }
        do {
            let result = try session.quickEdit(row.target, kind)
            guard let kept = result.kept else { return report(result.outcome, draft: result.draft) }
            // A conflict keeps the edit open as any conflicted save does: Enter overwrites
            // what is there now, Esc keeps it.
            mode = .prompt(
                Prompt(
                    purpose: .edit(kept), title: "edit \(kept.title) (\(kept.hint)); Enter saves, Esc cancels",
                    editor: LineEditor(result.text), error: result.outcome.message(result.draft).text))
        } catch {
            show(.refused("set", error))
        }
    }

    /// Opens the prompt for a new element at the end of the array on screen or under the
    /// cursor, typed like its siblings.
    func beginAppend() {
        guard let page = pages.last, let session = connection?.session else { return }
        let state = session.state
        guard state.canEdit else { return status = (InspectorSession.readOnlyMessage(state), .error) }
        var level: InspectorLevel?
        if case .list(let shown) = page.level { level = shown }
        guard let target = state.appendTarget(in: level, selected: selectedRow()) else {
            return show(InspectorMessage.noAppend)
        }
        do {
            let draft = try session.appendDraft(to: target)
            mode = .prompt(
                Prompt(
                    purpose: .edit(draft), title: "new element \(draft.title) (\(draft.hint)); Enter adds, Esc cancels",
                    editor: LineEditor(draft.editor == .json ? oneLine(draft.text) : draft.text)))
        } catch {
            show(.refused("add", error))
        }
    }

    /// Asks for a delete of exactly the rows the filter shows, naming them first.
    func beginBulkDelete() {
        guard let page = pages.last, let state = connection?.state else { return }
        guard case .list = page.level, !page.filter.isEmpty else {
            status = ("filter the keys with / first; D deletes the keys the filter shows", .warning)
            return
        }
        guard state.canEdit else {
            status = (InspectorSession.readOnlyMessage(state), .error)
            return
        }
        let deletion = state.deletion(of: rows(for: page, width: terminal.size.columns).compactMap(\.model))
        guard !deletion.entries.isEmpty else {
            status = (deletion.question, .plain)
            return
        }
        mode = .confirmBulk(deletion)
    }

    /// Handles a key while a prompt is open.
    func handlePrompt(_ key: Key, _ prompt: inout Prompt) {
        switch key {
        case .escape:
            mode = .browse
            status = ("cancelled", .plain)
        case .enter:
            submit(prompt)
        default:
            _ = prompt.editor.handle(key)
            prompt.error = nil
            mode = .prompt(prompt)
        }
    }

    private func submit(_ prompt: Prompt) {
        guard let session = connection?.session else { return }
        var prompt = prompt
        let text = prompt.editor.text
        switch prompt.purpose {
        case .edit(let draft):
            if draft.confirmation != nil {
                do {
                    _ = try session.check(draft, text: text)
                    mode = .confirmSave(draft, text: text)
                } catch {
                    prompt.error = error.message + " (Esc cancels)"
                    mode = .prompt(prompt)
                }
                return
            }
            do {
                let outcome = try session.save(draft, text: text)
                if case .conflict = outcome {
                    // The user's text stays: Enter overwrites what is there now, Esc keeps it.
                    prompt.purpose = .edit(session.redraft(draft))
                    prompt.error = outcome.message(draft).text
                    mode = .prompt(prompt)
                    return
                }
                mode = .browse
                report(outcome, draft: draft)
            } catch  where error.code == .typeMismatch || error.code == .invalidParams {
                prompt.error = error.message + " (Esc cancels)"
                mode = .prompt(prompt)
            } catch {
                mode = .browse
                status = ("set refused: \(error.message)", .error)
            }
        case .newName(let scanner, let container):
            guard !text.isEmpty else {
                prompt.error = "a key needs a name (Esc cancels)"
                mode = .prompt(prompt)
                return
            }
            let address = PreferenceAddress(scanner: scanner, container: container, key: text)
            if let existing = session.state.items[address], !InspectorState.isUnset(existing) {
                prompt.error = "'\(text)' already exists; press Esc and use e to edit it"
                mode = .prompt(prompt)
                return
            }
            // Only the types the agent says this container stores.
            let types = session.state.types(scanner: scanner)
            let start = existingType(address).flatMap { types.contains($0) ? $0 : nil } ?? types.first ?? .string
            mode = .prompt(
                Prompt(
                    purpose: .newType(scanner: scanner, container: container, key: text),
                    title: "type of \(text): \(types.map(\.rawValue).joined(separator: ", "))",
                    editor: LineEditor(start.rawValue)))
        case .newType(let scanner, let container, let key):
            guard let type = Self.type(named: text) else {
                let types = session.state.types(scanner: scanner).map(\.rawValue).joined(separator: ", ")
                prompt.error = "'\(text)' is not a type: \(types)"
                mode = .prompt(prompt)
                return
            }
            do {
                let draft = try session.newDraft(scanner: scanner, container: container, key: key, type: type)
                mode = .prompt(
                    Prompt(
                        purpose: .edit(draft), title: "value of \(key) (\(draft.hint))", editor: LineEditor(draft.text))
                )
            } catch {
                prompt.error = error.message + " (Esc cancels)"
                mode = .prompt(prompt)
            }
        }
    }

    /// Sends a draft the user confirmed.
    func save(_ draft: ValueDraft, text: String, confirmed: Bool) {
        guard let session = connection?.session else { return }
        do {
            report(try session.save(draft, text: text, confirmed: confirmed), draft: draft)
        } catch {
            status = ("set refused: \(error.message)", .error)
        }
    }

    private func existingType(_ address: PreferenceAddress) -> PreferenceType? {
        connection?.state.items[address]?.type
    }

    private func report(_ outcome: InspectorSession.SaveOutcome, draft: ValueDraft) {
        show(outcome.message(draft))
        if case .saved = outcome, draft.isNew { select(draft.address) }
    }

    /// Moves the cursor of a keys page onto `address`.
    private func select(_ address: PreferenceAddress) {
        guard let index = pages.indices.last, case .list(.keys) = pages[index].level else { return }
        let rows = rows(for: pages[index], width: terminal.size.columns)
        if let row = rows.firstIndex(where: { $0.model?.target == .key(address) }) { pages[index].cursor = row }
    }

    /// A type from its name, an unambiguous prefix, or a common alias.
    static func type(named text: String) -> PreferenceType? {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        let aliases: [String: PreferenceType] = [
            "int": .integer, "bool": .boolean, "dict": .dictionary, "float": .real, "double": .real, "number": .real,
        ]
        if let alias = aliases[name] { return alias }
        let matches = PreferenceType.allCases.filter { $0.rawValue.hasPrefix(name) }
        return name.isEmpty || matches.count != 1 ? nil : matches[0]
    }

    /// Asks y/n before deleting, unless nothing may be deleted.
    func confirmDelete(_ target: InspectorRow.Target) {
        guard let state = connection?.state else { return }
        guard state.canEdit else {
            status = (InspectorSession.readOnlyMessage(state), .error)
            return
        }
        mode = .confirmDelete(target)
    }

    /// Deletes a key or member after the user confirmed.
    func delete(_ target: InspectorRow.Target) {
        guard let session = connection?.session, let address = target.address else { return }
        do {
            let current = try session.delete(target)
            show(InspectorMessage.deleted(target, now: current))
            if current == nil, case .detail(let shown, let pointer)? = pages.last?.level, shown == address,
                pointer == target.pointer
            {
                pages.removeLast()
            }
        } catch {
            show(.refused("delete", error))
        }
    }

    /// Deletes the keys a bulk delete showed.
    func deleteShown(_ deletion: InspectorDeletion) {
        guard let session = connection?.session, let index = pages.indices.last else { return }
        do {
            let outcome = try session.delete(deletion)
            pages[index].filter = ""
            show(outcome.message)
        } catch {
            show(.refused("delete", error))
        }
    }

    /// Puts a model message on the status line.
    func show(_ message: InspectorMessage) {
        let style: ScreenBuffer.Style
        switch message.kind {
        case .info: style = .plain
        case .warning: style = .warning
        case .error: style = .error
        }
        // The model's offer is a key here: z and Z do it.
        status = (Terminal.escaped(message.text) + (message.offer.map { " (\($0.keyHint))" } ?? ""), style)
    }

    /// Removes the stored value so the default applies again.
    func reset(_ target: InspectorRow.Target) {
        guard let session = connection?.session, case .key(let address) = target else {
            status = ("u resets a whole key; choose a key", .warning)
            return
        }
        let state = session.state
        guard state.canEdit else { return status = (InspectorSession.readOnlyMessage(state), .error) }
        guard let row = state.row(for: address), row.isResettable else {
            if let row = state.row(for: address) { show(InspectorMessage.cannotReset(row)) }
            return
        }
        do {
            show(InspectorMessage.reset(address, now: try session.reset(address)))
        } catch {
            show(.refused("reset", error))
        }
    }

    /// Takes back the newest change (z) or the newest undo (Z), as `jarvis undo` and `jarvis redo`.
    func undo(redo: Bool) {
        guard let session = connection?.session else { return }
        do {
            show(try session.undo(redo: redo))
        } catch {
            show(.refused(redo ? "redo" : "undo", error))
        }
    }

    /// Opens `address`'s timeline: its changes from the agent's journal, newest first.
    func openTimeline(_ address: PreferenceAddress) {
        guard let session = connection?.session else { return }
        do {
            timeline = (address, try session.timeline(of: address))
            pages.append(Page(level: .timeline(address)))
            if timeline?.entries.isEmpty == true { status = ("no change to \(address.key) in the journal yet", .plain) }
        } catch {
            show(.refused("timeline", error))
        }
    }

    /// Takes back one change of the timeline on screen, by the agent's guarded write, and
    /// reads the timeline again.
    func revert(_ entry: InspectorTimelineEntry) {
        guard let session = connection?.session, let address = timeline?.address else { return }
        guard entry.canRevert else {
            status = ("#\(entry.id) cannot be taken back: \(entry.state ?? "")", .warning)
            return
        }
        do {
            show(try session.revert(entry))
        } catch {
            show(.refused(entry.revertLabel.lowercased(), error))
        }
        if let entries = try? session.timeline(of: address) { timeline = (address, entries) }
    }

    /// Asks the agent for a secret's value.
    func reveal(_ target: InspectorRow.Target) {
        guard let session = connection?.session, let address = target.address else { return }
        guard session.state.items[address]?.isMasked == true else {
            status = ("\(address.key) is not a masked secret; its value is shown already", .plain)
            return
        }
        do {
            try session.reveal(address)
            status = ("revealed \(address.key)", .plain)
        } catch {
            status = ("reveal refused: \(error.message)", .error)
        }
    }
}
