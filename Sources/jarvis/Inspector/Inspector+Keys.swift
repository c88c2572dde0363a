import Foundation
import JarvisCore
import JarvisInspector

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
        case .confirmDelete(let target):
            mode = .browse
            if key == .character("y") || key == .character("Y") {
                delete(target)
            } else {
                status = ("not deleted", .plain)
            }
        case .confirmBulk(let deletion):
            mode = .browse
            if key == .character("y") || key == .character("Y") {
                deleteShown(deletion)
            } else {
                status = ("nothing deleted", .plain)
            }
        case .confirmSave(let draft, let text):
            mode = .browse
            if key == .character("y") || key == .character("Y") {
                save(draft, text: text, confirmed: true)
            } else {
                status = ("not saved: \(draft.title) is unchanged", .plain)
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
        case .up, .character("k"): pages[index].cursor -= 1; scrollDetail(index, by: -1)
        case .down, .character("j"): pages[index].cursor += 1; scrollDetail(index, by: 1)
        case .pageUp: pages[index].cursor -= height; scrollDetail(index, by: -height)
        case .pageDown: pages[index].cursor += height; scrollDetail(index, by: height)
        case .home, .character("g"): pages[index].cursor = 0; pages[index].top = 0
        case .end, .character("G"): pages[index].cursor = Int.max / 2; scrollDetail(index, by: Int.max / 2)
        case .enter, .right, .character("l"):
            openSelection()
        case .escape, .left, .backspace, .character("h"):
            if key == .escape, !pages[index].filter.isEmpty {
                pages[index].filter = ""
            } else {
                goBack()
            }
        case .character("/"):
            if case .detail = pages[index].level { return }
            mode = .filter(LineEditor(pages[index].filter))
        case .control("l"):
            reload()
        case .character("e"):
            if let target = selectedTarget() { beginEdit(target) }
        case .character("d"):
            if let target = selectedTarget() { confirmDelete(target) }
        case .character("D"):
            beginBulkDelete()
        case .character("u"):
            if let target = selectedTarget() { reset(target) }
        case .character("r"):
            if let target = selectedTarget() { reveal(target) }
        case .character("R"):
            if let target = selectedTarget() { beginReplace(target) }
        case .character("n"):
            beginNew()
        case .character("v"):
            if let target = selectedTarget(), let address = target.address {
                if case .detail = pages[index].level { return }
                pages.append(Page(level: .detail(address, target.pointer)))
            }
        default:
            break
        }
        clampCursor()
    }

    /// Keeps the cursor on a row, so keys handled before the next draw see a real selection.
    private func clampCursor() {
        guard let index = pages.indices.last else { return }
        if case .detail = pages[index].level { return }
        let count = rows(for: pages[index], width: terminal.size.columns).count
        pages[index].cursor = min(max(0, pages[index].cursor), max(0, count - 1))
    }

    private func scrollDetail(_ index: Int, by amount: Int) {
        guard case .detail = pages[index].level else { return }
        pages[index].top = max(0, pages[index].top + amount)
    }

    /// The key or member under the cursor (on a list) or on screen (on a detail page).
    func selectedTarget() -> InspectorRow.Target? {
        guard let page = pages.last else { return nil }
        switch page.level {
        case .detail(let address, let pointer):
            return pointer.isWhole ? .key(address) : .member(address, pointer)
        case .list(.keys), .list(.value):
            let rows = rows(for: page, width: terminal.size.columns)
            guard rows.indices.contains(page.cursor), let row = rows[page.cursor].model else {
                status = ("no key selected", .warning)
                return nil
            }
            return row.target
        default:
            status = ("choose a key first (open a container)", .warning)
            return nil
        }
    }

    private func openSelection() {
        guard let page = pages.last else { return }
        if case .detail = page.level { return }
        let rows = rows(for: page, width: terminal.size.columns)
        guard rows.indices.contains(page.cursor) else { return }
        switch rows[page.cursor].target {
        case .agent(let record):
            guard let endpoint = record.endpoint else { return }
            close()
            open(endpoint)
        case .model(let row):
            switch row.destination {
            case .level(let level): pages.append(Page(level: .list(level)))
            case .detail(let address, let pointer): pages.append(Page(level: .detail(address, pointer)))
            }
        }
    }

    private func goBack() {
        guard pages.count > 1 else { return }
        let leaving = pages.removeLast()
        if leaving.level == .list(.scanners), pages.last?.level == .agents { close() }
    }
}
