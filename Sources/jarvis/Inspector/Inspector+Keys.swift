import Foundation
import JarvisCore

extension Inspector {
    /// Handles one key in the current mode.
    func handle(_ key: Key) {
        if key == .control("c") {
            running = false
            return
        }
        switch mode {
        case .help:
            mode = .browse
        case .filter(var editor):
            handleFilter(key, &editor)
        case .prompt(var prompt):
            handlePrompt(key, &prompt)
        case .confirmDelete(let item):
            mode = .browse
            if key == .character("y") || key == .character("Y") {
                delete(item)
            } else {
                status = ("not deleted", .plain)
            }
        case .browse:
            status = nil
            handleBrowse(key)
        }
    }

    private func handleFilter(_ key: Key, _ editor: inout LineEditor) {
        guard let index = pages.indices.last else { return }
        switch key {
        case .enter:
            mode = .browse
        case .escape:
            pages[index].filter = ""
            mode = .browse
        case .up, .down, .pageUp, .pageDown:
            mode = .browse
            handleBrowse(key)
        default:
            _ = editor.handle(key)
            pages[index].filter = editor.text
            pages[index].cursor = 0
            pages[index].top = 0
            mode = .filter(editor)
        }
    }

    private func handleBrowse(_ key: Key) {
        guard let index = pages.indices.last else {
            if key == .character("q") || key == .escape { running = false }
            return
        }
        let height = listHeight(terminal.size.rows)
        switch key {
        case .character("q"):
            running = false
        case .character("?"):
            mode = .help
        case .up, .character("k"): pages[index].cursor -= 1; scrollValue(index, by: -1)
        case .down, .character("j"): pages[index].cursor += 1; scrollValue(index, by: 1)
        case .pageUp: pages[index].cursor -= height; scrollValue(index, by: -height)
        case .pageDown: pages[index].cursor += height; scrollValue(index, by: height)
        case .home, .character("g"): pages[index].cursor = 0; pages[index].top = 0
        case .end, .character("G"): pages[index].cursor = Int.max / 2; scrollValue(index, by: Int.max / 2)
        case .enter, .right, .character("l"):
            openSelection()
        case .escape, .left, .backspace, .character("h"):
            if key == .escape, !pages[index].filter.isEmpty {
                pages[index].filter = ""
            } else {
                goBack()
            }
        case .character("/"):
            if case .value = pages[index].level { return }
            mode = .filter(LineEditor(pages[index].filter))
        case .control("l"):
            reload()
        case .character("e"):
            if let item = selectedItem() { beginEdit(item) }
        case .character("d"):
            if let item = selectedItem() { mode = .confirmDelete(item) }
        case .character("r"):
            if let item = selectedItem() { reveal(item) }
        case .character("n"):
            beginNew()
        default:
            break
        }
        clampCursor()
    }

    /// Keeps the cursor on a row, so keys handled before the next draw see a real selection.
    private func clampCursor() {
        guard let index = pages.indices.last else { return }
        if case .value = pages[index].level { return }
        let count = rows(for: pages[index], width: terminal.size.columns).count
        pages[index].cursor = min(max(0, pages[index].cursor), max(0, count - 1))
    }

    private func scrollValue(_ index: Int, by amount: Int) {
        guard case .value = pages[index].level else { return }
        pages[index].top = max(0, pages[index].top + amount)
    }

    /// The item under the cursor (on a keys page) or on screen (on a value page).
    func selectedItem() -> PreferenceItem? {
        guard let page = pages.last else { return nil }
        switch page.level {
        case .value(let address):
            return model.shown(address)
        case .keys:
            let rows = rows(for: page, width: terminal.size.columns)
            guard rows.indices.contains(page.cursor), case .key(let address) = rows[page.cursor].target else {
                status = ("no key selected", .warning)
                return nil
            }
            return model.shown(address)
        default:
            status = ("choose a key first (open a container)", .warning)
            return nil
        }
    }

    private func openSelection() {
        guard let page = pages.last else { return }
        if case .value = page.level { return }
        let rows = rows(for: page, width: terminal.size.columns)
        guard rows.indices.contains(page.cursor) else { return }
        switch rows[page.cursor].target {
        case .agent(let record):
            guard let endpoint = record.endpoint else { return }
            close()
            open(endpoint)
        case .scanner(let id):
            pages.append(Page(level: .containers(id)))
        case .container(let scanner, let name):
            pages.append(Page(level: .keys(scanner, name)))
        case .key(let address):
            pages.append(Page(level: .value(address)))
        }
    }

    private func goBack() {
        guard pages.count > 1 else { return }
        let leaving = pages.removeLast()
        if leaving.level == .scanners, pages.last?.level == .agents {
            close()
            model = InspectorModel()
        }
    }
}
