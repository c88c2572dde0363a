import Foundation
import JarvisCore
import JarvisInspector

extension Inspector {
    /// The key hints on the last line, per level.
    func hints(_ level: Level?) -> String {
        switch level {
        case .agents?, .list(.scanners)?, .list(.containers)?:
            return "↑↓ move  Enter open  Esc back  / filter  ? help  q quit"
        case .list(.keys)?: return "Enter open  e edit  n new  d del  u reset  r reveal  / filter  ? help  q quit"
        case .list(.value)?: return "Enter open  v view  e edit  d del  / filter  Esc back  ? help  q quit"
        case .detail?: return "↑↓ scroll  e edit  d delete  u reset  r reveal  Esc back  ? help  q quit"
        case nil: return "q quit"
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
        if case .help = mode {
            drawHelp(&screen)
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
        switch mode {
        case .browse, .help:
            if let status { screen.set(bottom - 1, status.text, status.style) }
            screen.set(bottom, hints(pages.last?.level), .dim)
        case .filter(let editor):
            screen.set(bottom - 1, "filter: type to narrow, Enter keeps it, Esc clears", .dim)
            let shown = editor.visible(width: size.columns - 2)
            screen.set(bottom, [.plain("/" + shown.text)])
            cursorPosition = (bottom, 1 + shown.cursor)
        case .prompt(let prompt):
            screen.set(bottom - 1, prompt.error ?? prompt.title, prompt.error == nil ? .bold : .error)
            let shown = editor(prompt.editor, width: size.columns - 2)
            screen.set(bottom, [.plain("> " + shown.text)])
            cursorPosition = (bottom, 2 + shown.cursor)
        case .confirmDelete(let target):
            let address = target.address
            let name = (address?.key ?? "") + (target.pointer.isWhole ? "" : target.pointer.description)
            screen.set(
                bottom - 1,
                Terminal.escaped("Delete \(address?.scanner ?? ""):\(address?.container ?? "") \(name)? (y/n)"),
                .warning)
            screen.set(bottom, hints(pages.last?.level), .dim)
        case .confirmBulk(_, let container, let glob, let keys):
            let list = keys.prefix(6).joined(separator: ", ") + (keys.count > 6 ? ", …" : "")
            screen.set(
                bottom - 1,
                Terminal.escaped(
                    "Delete \(keys.count) key\(keys.count == 1 ? "" : "s") of \(container) matching \(glob): \(list)? (y/n)"
                ),
                .warning)
            screen.set(bottom, hints(pages.last?.level), .dim)
        }
        var bytes = screen.render()
        if let cursorPosition {
            bytes += Array("\u{1B}[\(cursorPosition.row + 1);\(cursorPosition.column + 1)H\u{1B}[?25h".utf8)
        }
        terminal.write(bytes)
    }

    private func editor(_ editor: LineEditor, width: Int) -> (text: String, cursor: Int) {
        editor.visible(width: max(2, width - 1))
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
            segments.append(ScreenBuffer.Segment(text: state.isLive ? "  live " : "  not live ", style: .title))
        } else if !agents.isEmpty {
            segments.append(ScreenBuffer.Segment(text: "· choose an agent ", style: .title))
        }
        screen.set(0, segments)
    }

    private func breadcrumb(_ page: Page) -> String {
        var parts: [String]
        switch page.level {
        case .agents: parts = ["agents (\(agents.count) running)"]
        case .list(.scanners): parts = ["scanners"]
        case .list(let level): parts = level.path
        case .detail(let address, let pointer):
            parts = [address.scanner, address.container, address.key] + pointer.tokens
        }
        var text = Terminal.escaped(parts.joined(separator: " › "))
        if !page.filter.isEmpty { text += "   /\(page.filter)" }
        return text
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
            screen.set(3, page.filter.isEmpty ? "  (empty)" : "  nothing matches /\(page.filter)", .dim)
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
        let lines = detailLines(address, pointer)
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

    private func drawHelp(_ screen: inout ScreenBuffer) {
        let lines = Self.keyHelp.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (offset, line) in lines.enumerated() { screen.set(2 + offset, "  " + line) }
        screen.set(2 + lines.count + 1, "  press any key to go back", .dim)
    }

    /// The `?` screen; the keys table of docs/CLI.md says the same.
    static let keyHelp = """
        Keys
          ↑ ↓  k j         move (PgUp PgDn Home End jump)
          Enter → l        open the scanner, container or key; a dictionary or array opens
                           its members as rows, down to any depth
          v                show the whole value of the row under the cursor
          Esc ← h Bksp     back (Esc first clears a filter)
          /                filter as you type: text, or a glob with * and ? (Enter keeps it)
          e                edit the value, or only the nested member under the cursor
                           (checked against the type and the key catalog; sends the revision)
          n                add a key: name, then type, then value
          d                delete the key or nested member (asks y/n)
          D                delete every key the filter matches (shows them, asks y/n)
          u                reset the key: remove what is stored so its default applies
          r                reveal a secret, where the agent allows it
          Ctrl-L           reload everything from the agent
          ?                this help
          q  Ctrl-C        quit
        Rows marked * changed in the agent a moment ago (live updates need `watch`).
        """
}
