import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension Inspector {
    /// Opens the edit prompt for a key or nested member, with the model's draft. In a
    /// read-only agent nothing is offered: the status says why.
    func beginEdit(_ target: InspectorRow.Target) {
        guard let session = connection?.session else { return }
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

    /// Asks for a bulk delete of what the filter matches on a keys page, after a preview.
    func beginBulkDelete() {
        guard let page = pages.last, let session = connection?.session else { return }
        guard case .list(.keys(let scanner, let container)) = page.level, !page.filter.isEmpty else {
            status = ("filter the keys with / first; D deletes what the filter matches", .warning)
            return
        }
        let filter = InspectorFilter(page.filter)
        let glob = filter.isGlob ? page.filter : "*\(page.filter)*"
        do {
            let keys = try session.deletePreview(scanner: scanner, container: container, matching: glob)
            guard !keys.isEmpty else {
                status = ("no stored key matches \(glob)", .plain)
                return
            }
            mode = .confirmBulk(scanner: scanner, container: container, glob: glob, keys: keys)
        } catch {
            status = ("cannot preview: \(error.message)", .error)
        }
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
            do {
                let outcome = try session.save(draft, text: text)
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
            mode = .prompt(
                Prompt(
                    purpose: .newType(scanner: scanner, container: container, key: text),
                    title: "type of \(text): string, integer, real, boolean, date, data, array or dictionary",
                    editor: LineEditor(existingType(address)?.rawValue ?? "string")))
        case .newType(let scanner, let container, let key):
            guard let type = Self.type(named: text) else {
                prompt.error = "'\(text)' is not a type: string, integer, real, boolean, date, data, array, dictionary"
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

    private func existingType(_ address: PreferenceAddress) -> PreferenceType? {
        connection?.state.items[address]?.type
    }

    private func report(_ outcome: InspectorSession.SaveOutcome, draft: ValueDraft) {
        switch outcome {
        case .saved(let item):
            let shown = item.value.map { ValueFormat.preview($0, limit: 50) } ?? ""
            status = ("saved \(draft.title) = \(Terminal.escaped(shown)) (revision \(item.revision.text))", .plain)
            // A note (a date the storage rounded) matters more than the confirmation.
            if let note = item.notes.first { status = ("saved; note: " + note, .warning) }
            if draft.isNew { select(draft.address) }
        case .conflict(let current):
            let now = current.map { InspectorState.preview($0, limit: 40) } ?? "removed"
            status = (
                "not saved: someone else changed \(draft.address.key) since you read it; it is now \(Terminal.escaped(now))",
                .error
            )
        }
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
        let name = address.key + (target.pointer.isWhole ? "" : target.pointer.description)
        do {
            if let current = try session.delete(target) {
                status = (
                    "not deleted: someone else changed \(address.key); it is now \(Terminal.escaped(InspectorState.preview(current, limit: 40)))",
                    .error
                )
                return
            }
            if case .detail(let shown, let pointer)? = pages.last?.level, shown == address, pointer == target.pointer {
                pages.removeLast()
            }
            status = ("deleted \(name)", .plain)
        } catch {
            status = ("delete refused: \(error.message)", .error)
        }
    }

    /// Deletes what a bulk delete previewed.
    func deleteMatching(scanner: String, container: String, glob: String) {
        guard let session = connection?.session, let index = pages.indices.last else { return }
        do {
            let keys = try session.delete(scanner: scanner, container: container, matching: glob)
            pages[index].filter = ""
            status = ("deleted \(keys.count) key\(keys.count == 1 ? "" : "s") matching \(glob)", .plain)
        } catch {
            status = ("delete refused: \(error.message)", .error)
        }
    }

    /// Removes the stored value so the default applies again.
    func reset(_ target: InspectorRow.Target) {
        guard let session = connection?.session, case .key(let address) = target else {
            status = ("u resets a whole key; choose a key", .warning)
            return
        }
        do {
            let now = try session.reset(address)
            status = (
                "reset \(address.key): " + (now.map { InspectorState.preview($0, limit: 40) } ?? "nothing is stored"),
                .plain
            )
        } catch {
            status = ("reset refused: \(error.message)", .error)
        }
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
