import Foundation
import JarvisCore
import JarvisRemote

extension Inspector {
    /// Opens the edit prompt for `item`, filled with its current value.
    func beginEdit(_ item: PreferenceItem) {
        let text: String
        switch item.value {
        case .array(let values)?: text = JSONWriter.string(PreferenceValue.array(values).json)
        case .dictionary(let values)?: text = JSONWriter.string(PreferenceValue.dictionary(values).json)
        case let value?: text = ValueText.full(value)
        case nil: text = ""
        }
        var title = "edit \(item.address.key) (\(Self.typeHint(item.type))); Enter saves, Esc cancels"
        if connection?.editing == false { title += "; the agent is READ-ONLY and will refuse" }
        mode = .prompt(Prompt(purpose: .edit(item), title: title, editor: LineEditor(text)))
    }

    /// Opens the prompts for a new key in the container on screen.
    func beginNew() {
        guard let page = pages.last else { return }
        let place: (String, String)
        switch page.level {
        case .keys(let scanner, let container): place = (scanner, container)
        case .value(let address): place = (address.scanner, address.container)
        case .containers(let scanner):
            let rows = rows(for: page, width: terminal.size.columns)
            guard rows.indices.contains(page.cursor), case .container(_, let name) = rows[page.cursor].target else {
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

    /// Handles a key while a prompt is open.
    func handlePrompt(_ key: Key, _ prompt: inout Prompt) {
        switch key {
        case .escape:
            mode = .browse
            status = ("cancelled", .plain)
            return
        case .enter:
            submit(prompt)
            return
        default:
            _ = prompt.editor.handle(key)
            prompt.error = nil
            mode = .prompt(prompt)
        }
    }

    private func submit(_ prompt: Prompt) {
        var prompt = prompt
        let text = prompt.editor.text
        switch prompt.purpose {
        case .edit(let item):
            do {
                let value = try Self.parse(text, as: item.type)
                mode = .browse
                write(value, to: item.address, expected: item.revision)
            } catch {
                prompt.error = error.message + " (Esc cancels)"
                mode = .prompt(prompt)
            }
        case .newName(let scanner, let container):
            guard !text.isEmpty else {
                prompt.error = "a key needs a name (Esc cancels)"
                mode = .prompt(prompt)
                return
            }
            let address = PreferenceAddress(scanner: scanner, container: container, key: text)
            if model.items[address] != nil {
                prompt.error = "'\(text)' already exists; press Esc and use e to edit it"
                mode = .prompt(prompt)
                return
            }
            mode = .prompt(
                Prompt(
                    purpose: .newType(address),
                    title: "type of \(text): string, integer, real, boolean, date, data, array or dictionary",
                    editor: LineEditor("string")))
        case .newType(let address):
            guard let type = Self.type(named: text) else {
                prompt.error = "'\(text)' is not a type: string, integer, real, boolean, date, data, array, dictionary"
                mode = .prompt(prompt)
                return
            }
            let initial: String
            switch type {
            case .array: initial = "[]"
            case .dictionary: initial = "{}"
            case .boolean: initial = "false"
            default: initial = ""
            }
            mode = .prompt(
                Prompt(
                    purpose: .newValue(address, type), title: "value of \(address.key) (\(Self.typeHint(type)))",
                    editor: LineEditor(initial)))
        case .newValue(let address, let type):
            do {
                let value = try Self.parse(text, as: type)
                mode = .browse
                write(value, to: address, expected: nil)
            } catch {
                prompt.error = error.message + " (Esc cancels)"
                mode = .prompt(prompt)
            }
        }
    }

    /// Parses what was typed for a key of `type`, refusing values the type cannot hold.
    static func parse(_ text: String, as type: PreferenceType) throws(JarvisError) -> PreferenceValue {
        let value = try ValueText.parse(text, as: type)
        guard value.type == type else {
            throw JarvisError(
                .typeMismatch, "this key holds \(article(type)) \(type); that is \(article(value.type)) \(value.type)")
        }
        return value
    }

    private static func article(_ type: PreferenceType) -> String {
        [.integer, .array].contains(type) ? "an" : "a"
    }

    /// How to type a value of `type`.
    static func typeHint(_ type: PreferenceType) -> String {
        switch type {
        case .string: return "string: any text"
        case .integer: return "integer: a whole number"
        case .real: return "real: a number"
        case .boolean: return "boolean: true or false"
        case .date: return "date: ISO 8601, e.g. 2024-01-15T10:00:00Z"
        case .data: return "data: base64"
        case .array: return "array: JSON in the wire encoding"
        case .dictionary: return "dictionary: JSON in the wire encoding"
        }
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

    private func write(_ value: PreferenceValue, to address: PreferenceAddress, expected: Revision?) {
        guard let client = connection?.client else { return }
        do {
            let item = try client.set(address, to: value, expectedRevision: expected)
            model.store(item)
            select(address)
            status = (
                "saved \(address.key) = \(ValueText.preview(item, limit: 50)) (revision \(item.revision.text))", .plain
            )
            // A note (a date the storage rounded) matters more than the confirmation.
            if let note = item.notes.first { status = ("saved; note: " + note, .warning) }
        } catch {
            refused("set", error, address: address)
        }
    }

    /// Moves the cursor of a keys page onto `address`.
    private func select(_ address: PreferenceAddress) {
        guard let index = pages.indices.last, case .keys = pages[index].level else { return }
        let rows = rows(for: pages[index], width: terminal.size.columns)
        if let row = rows.firstIndex(where: { if case .key(let shown) = $0.target { shown == address } else { false } })
        {
            pages[index].cursor = row
        }
    }

    /// Deletes `item` after the user confirmed.
    func delete(_ item: PreferenceItem) {
        guard let client = connection?.client else { return }
        do {
            try client.delete(item.address, expectedRevision: item.revision)
            model.remove(item.address)
            if case .value(let shown)? = pages.last?.level, shown == item.address { pages.removeLast() }
            status = ("deleted \(item.address.key)", .plain)
        } catch {
            refused("delete", error, address: item.address)
        }
    }

    /// Asks the agent for a secret's value.
    func reveal(_ item: PreferenceItem) {
        guard item.isMasked else {
            status = ("\(item.address.key) is not a masked secret; its value is shown already", .plain)
            return
        }
        guard let client = connection?.client else { return }
        do {
            let revealed = try client.get(item.address, reveal: true)
            model.reveal(revealed)
            status = ("revealed \(item.address.key)", .plain)
        } catch {
            refused("reveal", error, address: item.address)
        }
    }

    /// Shows the agent's reason for refusing; after a conflict, shows the value as it is now.
    private func refused(_ action: String, _ error: JarvisError, address: PreferenceAddress) {
        status = ("\(action) refused: \(error.message)", .error)
        guard error.code == .conflict || error.code == .notFound, let client = connection?.client else { return }
        if let current = try? client.get(address) {
            model.store(current)
        } else if error.code == .notFound {
            model.remove(address)
        }
    }
}
