import Foundation
import JarvisCore
import JarvisInspector

extension Inspector {
    /// The key hints on the last line: only what the row under the cursor and the agent
    /// allow (no edit, delete or reset in a read-only agent).
    func hints(_ level: Level?) -> String {
        let state = connection?.state
        var parts: [String]
        switch level {
        case .agents?, .list(.scanners)?, .list(.containers)?:
            parts = ["↑↓ move", "Enter open", "Esc back", level == .list(.scanners) ? "/ find a key" : "/ filter"]
        case .list?, .allKeys?:
            parts = ["Enter open"]
            if case .list(.value)? = level { parts.append("v view") }
            parts += actionHints(selectedRow())
            if let state, case .list(let shown)? = level, state.appendTarget(in: shown, selected: nil) != nil {
                parts.append("a add element")
            }
            if state?.canEdit == true { parts.append("n new") }
            parts += ["/ filter", "s sort", "Esc back"]
        case .detail?:
            parts = ["↑↓ scroll"] + actionHints(selectedRow()) + ["t timeline", "Esc back"]
        case .timeline?:
            parts = ["↑↓ move", "Enter revert the change", "/ filter", "Esc back"]
        case nil: return "q quit"
        }
        return (parts + ["? help", "q quit"]).joined(separator: "  ")
    }

    private func actionHints(_ row: InspectorRow?) -> [String] {
        guard let row else { return [] }
        var parts: [String] = []
        if row.isEditable { parts.append("e edit") }
        switch row.quickEdit {
        case .toggle?: parts.append("Space toggle")
        case .nextChoice?: parts.append("Tab next choice")
        case nil: break
        }
        if row.isAppendable { parts.append("a add element") }
        if row.isReplaceable { parts.append("R replace") }
        if row.isRevealable { parts.append("r reveal") }
        if row.isDeletable { parts.append("d delete") }
        if row.isResettable { parts.append("u reset") }
        return parts
    }

    /// The model's row under the cursor, or of the detail on screen.
    func selectedRow() -> InspectorRow? {
        guard let page = pages.last, let state = connection?.state else { return nil }
        switch page.level {
        case .detail(let address, let pointer):
            return state.detail(address, pointer, limit: 0)?.row
        case .list, .allKeys:
            let rows = rows(for: page, width: terminal.size.columns)
            return rows.indices.contains(page.cursor) ? rows[page.cursor].model : nil
        case .agents, .timeline:
            return nil
        }
    }

    /// Rows available for the list between the header lines and the two bottom lines.
    func listHeight(_ rows: Int) -> Int { max(1, rows - 5) }

    /// Redraws the whole screen.
    func draw() {
        let size = terminal.size
        var screen = ScreenBuffer(rows: size.rows, columns: size.columns, color: color)
        drawTitle(&screen)
        var cursorPosition: (row: Int, column: Int)?
        if case .help(let top) = mode {
            drawHelp(&screen, top: top)
        } else if let index = pages.indices.last {
            screen.set(1, breadcrumb(pages[index]), .accent)
            if case .detail(let address, let pointer) = pages[index].level {
                drawDetail(&screen, address: address, pointer: pointer, page: &pages[index])
            } else {
                drawList(&screen, page: &pages[index])
            }
        } else {
            screen.set(2, "Not connected to an agent.", .warning)
        }
        let bottom = size.rows - 1
        // The last lines: a message or question above, then hints or the line being typed,
        // each wrapped whole to the width (never cut off in an 80-column terminal).
        var message: (text: String, style: ScreenBuffer.Style)?
        var input: (prefix: String, editor: LineEditor, secret: Bool)?
        switch mode {
        case .browse, .help:
            message = status
        case .filter(let editor):
            message = ("filter: type to narrow, Enter keeps it, Esc clears", .dim)
            input = ("/", editor, false)
        case .prompt(let prompt):
            message = (Terminal.escaped(prompt.error ?? prompt.title), prompt.error == nil ? .bold : .error)
            input = ("> ", prompt.editor, prompt.secret)
        case .confirmDelete(let target):
            let address = target.address
            let name = (address?.key ?? "") + (target.pointer.isWhole ? "" : target.pointer.description)
            message = (
                Terminal.escaped("Delete \(address?.scanner ?? ""):\(address?.container ?? "") \(name)? (y/n)"),
                .warning
            )
        case .confirmSave(let draft, _):
            message = (Terminal.escaped((draft.confirmation ?? "Save \(draft.title)?") + " (y/n)"), .warning)
        case .confirmBulk(let deletion):
            message = (Terminal.escaped(deletion.question + " (y/n)"), .warning)
        case .confirmLeave(let toAgents):
            let name = connection?.name ?? "the agent"
            message = (
                Terminal.escaped(InspectorMessage.leaveQuestion(agent: name, toAgentList: toAgents) + " (y/n)"),
                .warning
            )
        }
        var line = bottom
        if let input {
            let shown = input.editor.visible(width: max(2, size.columns - input.prefix.count - 1))
            let text = input.secret ? String(repeating: "•", count: shown.text.count) : shown.text
            screen.set(bottom, [.plain(input.prefix + text)])
            cursorPosition = (bottom, input.prefix.count + shown.cursor)
            line -= 1
        } else {
            let lines = Self.wrap(hints(pages.last?.level), width: size.columns, separator: "  ")
            for text in lines.reversed() {
                screen.set(line, text, .dim)
                line -= 1
            }
        }
        if let message {
            let lines = Self.wrap(message.text, width: size.columns, separator: " ").suffix(max(1, line - 2))
            for (offset, text) in lines.enumerated() {
                screen.set(line - lines.count + 1 + offset, text, message.style)
            }
        }
        var bytes = screen.render()
        if let cursorPosition {
            bytes += Array("\u{1B}[\(cursorPosition.row + 1);\(cursorPosition.column + 1)H\u{1B}[?25h".utf8)
        }
        terminal.write(bytes)
    }

    /// Text broken into lines of at most `width` characters at `separator`s (a word longer
    /// than a line is cut across lines).
    static func wrap(_ text: String, width: Int, separator: String) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for word in text.components(separatedBy: separator) {
            if line.isEmpty {
                line = word
            } else if line.count + separator.count + word.count <= width {
                line += separator + word
            } else {
                lines.append(line)
                line = word
            }
            while line.count > width {
                lines.append(String(line.prefix(width)))
                line = String(line.dropFirst(width))
            }
        }
        lines.append(line)
        return lines
    }

    private func drawTitle(_ screen: inout ScreenBuffer) {
        var segments: [ScreenBuffer.Segment] = [ScreenBuffer.Segment(text: " jarvis inspect ", style: .title)]
        if let connection {
            let state = connection.state
            segments.append(
                ScreenBuffer.Segment(
                    text: "· \(Terminal.escaped(connection.name)) (pid \(connection.pid)) ", style: .title))
            if let banner = state.banner {
                segments.append(ScreenBuffer.Segment(text: " ", style: .title))
                segments.append(ScreenBuffer.Segment(text: " \(banner) ", style: .badge))
            }
            let live = connection.reconnection.isGone(state) ? "  gone, reconnecting " : (state.isLive ? "  live " : "  not live ")
            segments.append(ScreenBuffer.Segment(text: live, style: .title))
        } else if !agents.isEmpty {
            segments.append(ScreenBuffer.Segment(text: "· choose an agent ", style: .title))
        }
        screen.set(0, segments)
    }

    private func breadcrumb(_ page: Page) -> String {
        var parts: [String]
        switch page.level {
        case .agents: parts = ["agents (\(agents.count) running)"]
        case .allKeys: parts = ["all keys"]
        case .list(.scanners): parts = ["scanners"]
        case .list(let level): parts = level.path
        case .detail(let address, let pointer):
            parts = [address.scanner, address.container, address.key] + pointer.tokens
        case .timeline(let address):
            parts = [address.scanner, address.container, address.key, "timeline"]
        }
        var filter = page.filter.isEmpty ? "" : "   /\(Terminal.escaped(page.filter))"
        if page.level.listsKeys { filter = "   sort: \(sort.label)" + filter }
        return Self.crumb(parts.map(Terminal.escaped), width: terminal.size.columns - 2 - filter.count) + filter
    }

    /// The path from the top, or its end with how deep it is when it is wider than `width`
    /// (`… › d › d (37 levels)`), so 200 levels of nesting stay readable.
    static func crumb(_ parts: [String], width: Int) -> String {
        let whole = parts.joined(separator: " › ")
        guard whole.count > width, parts.count > 1 else { return whole }
        let note = " (\(parts.count) levels)"
        var tail: [String] = []
        var used = 4 + note.count
        for part in parts.reversed() {
            if !tail.isEmpty, used + part.count + 3 > width { break }
            tail.insert(part, at: 0)
            used += part.count + 3
        }
        return "… › " + tail.joined(separator: " › ") + note
    }

    private func drawList(_ screen: inout ScreenBuffer, page: inout Page) {
        let width = screen.columns
        screen.set(2, columnHeader(page.level, width: width), .dim)
        let rows = rows(for: page, width: width)
        let height = listHeight(screen.rows)
        page.cursor = min(max(0, page.cursor), max(0, rows.count - 1))
        if page.cursor < page.top { page.top = page.cursor }
        if page.cursor >= page.top + height { page.top = page.cursor - height + 1 }
        page.top = max(0, min(page.top, max(0, rows.count - height)))
        if rows.isEmpty {
            screen.set(3, page.filter.isEmpty ? "  (empty)" : "  nothing matches /\(Terminal.escaped(page.filter))", .dim)
        }
        for (offset, row) in rows.dropFirst(page.top).prefix(height).enumerated() {
            let selected = page.top + offset == page.cursor
            let marker = selected ? ">" : (row.changed ? "*" : " ")
            var segments = [ScreenBuffer.Segment(text: marker + " ", style: row.changed ? .changed : .plain)]
            segments += row.cells
            if selected {
                let text = segments.map(\.text).joined()
                segments = [ScreenBuffer.Segment(text: text, style: .reverse)]
            } else if row.changed {
                segments = segments.map { ScreenBuffer.Segment(text: $0.text, style: .changed) }
            }
            screen.set(3 + offset, segments)
        }
        if rows.count > height {
            let last = min(rows.count, page.top + height)
            screen.set(
                2,
                [
                    .plain(ScreenBuffer.clip(columnHeader(page.level, width: width), to: width - 14).0),
                    ScreenBuffer.Segment(text: "  \(page.top + 1)-\(last)/\(rows.count)", style: .dim),
                ])
        }
    }

    private func drawDetail(
        _ screen: inout ScreenBuffer, address: PreferenceAddress, pointer: JSONPointer, page: inout Page
    ) {
        let lines = detailLines(address, pointer) + fleetLines(address, pointer, width: screen.columns)
        let height = listHeight(screen.rows) + 1
        page.top = max(0, min(page.top, lines.count - height))
        for (offset, line) in lines.dropFirst(page.top).prefix(height).enumerated() {
            screen.set(2 + offset, "  " + line, page.top + offset < 3 ? .dim : .plain)
        }
        if lines.count > height {
            screen.set(
                1,
                [
                    ScreenBuffer.Segment(text: breadcrumb(page), style: .accent),
                    ScreenBuffer.Segment(
                        text: "   lines \(page.top + 1)-\(min(lines.count, page.top + height))/\(lines.count)",
                        style: .dim),
                ])
        }
    }

    private func drawHelp(_ screen: inout ScreenBuffer, top: Int) {
        let lines = Self.helpLines(width: screen.columns - 2)
        // Rows 2 to the line above the hints; the help scrolls when it is taller.
        let height = max(1, screen.rows - 4)
        let first = max(0, min(top, lines.count - height))
        if case .help(let asked) = mode, asked != first { mode = .help(top: first) }
        for (offset, line) in lines.dropFirst(first).prefix(height).enumerated() {
            screen.set(2 + offset, "  " + line)
        }
        let more = lines.count > height ? "↑↓ scroll (lines \(first + 1)-\(min(lines.count, first + height))/\(lines.count)); " : ""
        screen.set(1, more + "any other key goes back", .dim)
    }

    /// The key help, each line wrapped whole to `width` with its description's indent.
    static func helpLines(width: Int) -> [String] {
        var lines: [String] = []
        for line in keyHelp.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard line.count > width else {
                lines.append(line)
                continue
            }
            // Continuation lines start under the description (after the key column).
            let indent = line.hasPrefix("  ") ? 19 : 0
            let words = line.dropFirst(indent).split(separator: " ", omittingEmptySubsequences: false)
            var current = String(line.prefix(indent))
            var empty = true
            for word in words {
                if !empty, current.count + 1 + word.count > width {
                    lines.append(current)
                    current = String(repeating: " ", count: indent)
                    empty = true
                }
                current += (empty ? "" : " ") + word
                empty = false
            }
            lines.append(current)
        }
        return lines
    }

    /// The `?` screen; the keys table of docs/CLI.md says the same. One line per key: the
    /// screen wraps each to its width under the description column.
    static let keyHelp = """
        Keys
          ↑ ↓  k j         move (PgUp PgDn Home End jump)
          Enter → l        open the scanner, container or key; a dictionary or array opens its members as rows, down to any depth
          v                show the whole value of the row under the cursor
          Esc ← h Bksp     back (Esc first clears a filter)
          s                sort the keys or members: by key (natural order), type, value, each up then down, and back
          /                filter as you type: text, or a glob with * and ? (Enter keeps it); on the scanner list it finds keys in every container
          e                edit the value, or only the nested member under the cursor (checked against the type and the key catalog; sends the revision)
          Space            toggle a boolean (saved at once, with the revision)
          Tab              the next of a catalogued key's choices (saved at once)
          a                add an element at the end of an array, typed like the others
          n                add a key: name, then type, then value
          d                delete the key or nested member (asks y/n)
          D                delete exactly the keys the filter shows (names them, asks y/n)
          u                reset a catalogued key: remove what is stored so its default applies
          z                undo the newest change (again: the one before), if nobody changed the key since
          Z                redo: put back what the last z took
          t                the key's timeline: every change the journal holds, newest first; Enter reverts the one under the cursor (if nobody changed the key since)
          r                reveal a secret, where the agent allows it
          R                replace a masked secret without seeing it (asks y/n)
          Ctrl-L           reload everything from the agent
          ?                this help
          q                quit (asks first: it disconnects)
          Ctrl-C           quit at once
        The scanner list starts with All keys: every key, one filter for all.
        Rows marked * changed in the agent a moment ago (live updates need `watch`).
        """
}
