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
        case .help(let top):
            let step: Int
            switch key {
            case .up, .character("k"): step = -1
            case .down, .character("j"): step = 1
            case .pageUp: step = -listHeight(terminal.size.rows)
            case .pageDown, .character(" "): step = listHeight(terminal.size.rows)
            default:
                mode = .browse
                return
            }
            mode = .help(top: max(0, top + step))
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
        case .confirmLeave(let toAgents):
            mode = .browse
            if key == .character("y") || key == .character("Y") {
                close()
                if toAgents { pages.removeLast() } else { running = false }
            } else {
                status = ("still connected", .plain)
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
            if asksBeforeLeaving { mode = .confirmLeave(toAgents: false) } else { running = false }
        case .character("?"):
            mode = .help(top: 0)
        case .character("s"):
            // Keys and members: by key, type, value, each up then down (the model's cycle).
            sort = sort.next
            status = ("sorted by \(sort.label)", .plain)
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
            switch pages[index].level {
            case .detail, .timeline: return
            case .list(.scanners):
                // At the top, a filter looks for keys: it opens every key with it.
                pages.append(Page(level: .allKeys))
                mode = .filter(LineEditor(""))
            default:
                mode = .filter(LineEditor(pages[index].filter))
            }
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
        case .character("t"):
            if let target = selectedTarget(), let address = target.address { openTimeline(address) }
        case .character("z"):
            undo(redo: false)
        case .character("Z"):
            undo(redo: true)
        case .character("r"):
            if let target = selectedTarget() { reveal(target) }
        case .character("R"):
            if let target = selectedTarget() { beginReplace(target) }
        case .character("n"):
            beginNew()
        case .character(" "):
            quickEdit(.toggle)
        case .tab:
            quickEdit(.nextChoice)
        case .character("a"):
            beginAppend()
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
        case .timeline(let address):
            return .key(address)
        case .list(.keys), .list(.value), .allKeys:
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
        case .agent(let agent):
            guard let endpoint = agent.record.endpoint else { return }
            close()
            open(endpoint, selector: String(agent.record.pid))
        case .allKeys:
            pages.append(Page(level: .allKeys))
        case .change(let entry):
            revert(entry)
        case .model(let row):
            switch row.destination {
            case .level(let level): pages.append(Page(level: .list(level)))
            case .detail(let address, let pointer): pages.append(Page(level: .detail(address, pointer)))
            }
        }
    }

    /// Whether the next step back (or q) would disconnect from a live agent: asked first.
    /// Not when the agent is gone already or nothing is open.
    var asksBeforeLeaving: Bool {
        guard let connection else { return false }
        return !connection.reconnection.isGone(connection.state)
    }

    private func goBack() {
        guard let last = pages.last else { return }
        // The last level of an agent: leaving it disconnects, to the agent list or out.
        if last.level == .list(.scanners) {
            let toAgents = pages.count > 1 && pages[pages.count - 2].level == .agents
            if asksBeforeLeaving {
                mode = .confirmLeave(toAgents: toAgents)
            } else if toAgents {
                close()
                pages.removeLast()
            } else {
                running = false
            }
            return
        }
        guard pages.count > 1 else { return }
        pages.removeLast()
    }
}
