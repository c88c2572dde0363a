import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension Inspector {
    /// One selectable line of a list page: the model's row (nil for an agent) drawn as cells.
    struct Row {
        enum Target {
            case agent(InspectorAgent)
            /// The scanner list's first entry: every key of every container.
            case allKeys
            case model(InspectorRow)
            /// A change in a key's timeline.
            case change(InspectorTimelineEntry)
        }
        var target: Target
        var cells: [ScreenBuffer.Segment]
        var changed = false
        /// What a filter matches, lowercased once when the row is built.
        var folded: InspectorFilter.Folded

        /// The model's row, unless this is an agent.
        var model: InspectorRow? {
            if case .model(let row) = target { return row }
            return nil
        }
    }

    /// The header line above a list, for the page's level.
    func columnHeader(_ level: Level, width: Int) -> String {
        switch level {
        case .agents:
            return "  " + Terminal.pad("PID", 8) + Terminal.pad("NAME", 22) + Terminal.pad("ACCESS", 23) + "STARTED"
        case .allKeys:
            return "  " + Terminal.pad("KEY", allKeysKeyWidth(width))
                + Terminal.pad("CONTAINER", containerWidth(width)) + Terminal.pad("TYPE", 11) + "VALUE"
        case .list(.scanners):
            return "  " + Terminal.pad("SCANNER", 14) + Terminal.pad("NAME", 26) + Terminal.pad("KEYS", 8) + "NOTES"
        case .list(.containers):
            return "  " + Terminal.pad("CONTAINER", containerColumn(width)) + Terminal.pad("KEYS", 8) + "NOTES"
        case .list(.keys): return "  " + Terminal.pad("KEY", keyWidth(width)) + Terminal.pad("TYPE", 11) + "VALUE"
        case .list(.value): return "  " + Terminal.pad("MEMBER", keyWidth(width)) + Terminal.pad("TYPE", 11) + "VALUE"
        case .detail: return ""
        case .timeline: return "  " + Terminal.pad("ENTRY", 7) + Terminal.pad("TIME", 10) + "CHANGE"
        }
    }

    func keyWidth(_ width: Int) -> Int { min(36, max(14, width * 3 / 10)) }

    /// The name column of the container list: what the longest name needs, so a note (a
    /// problem, a large suite's size) has the rest of the line.
    func containerColumn(_ width: Int) -> Int {
        let longest = connection?.state.containers.map { Terminal.escaped($0.name).count }.max() ?? 0
        return max(24, min(width - 26, longest + 2))
    }

    /// The container column of the all-keys list.
    func containerWidth(_ width: Int) -> Int { min(32, max(12, width / 4)) }

    /// The key column of the all-keys list, which gives the container room.
    func allKeysKeyWidth(_ width: Int) -> Int { min(36, max(14, width / 4)) }

    /// A container's name cut in the middle, so both its start and its distinguishing end
    /// show (`com.exam…demo.prefs`).
    static func middleClip(_ text: String, to width: Int) -> String {
        guard text.count > width, width > 4 else { return text }
        let tail = (width - 1) / 2
        return String(text.prefix(width - 1 - tail)) + "…" + String(text.suffix(tail))
    }

    /// The rows of a list page, filtered.
    func rows(for page: Page, width: Int) -> RowList {
        switch page.level {
        case .agents:
            let filter = InspectorFilter(page.filter)
            let rows = agents.filter { filter.matches(Self.filterText($0)) }.map { agent in
                let record = agent.record
                return Row(
                    target: .agent(agent),
                    cells: [
                        .plain(
                            Terminal.pad(String(record.pid), 8)
                                + Terminal.pad(ScreenBuffer.clip(Terminal.escaped(record.name), to: 21).0, 22)),
                        ScreenBuffer.Segment(
                            text: Terminal.pad(agent.access, 23),
                            style: agent.capabilities?.editing == true && agent.capabilities?.production == false
                                ? .plain : .warning),
                        .plain(
                            record.started
                                + (record.bundleID.map {
                                    "  \(Terminal.escaped(record.device ?? "")) \(Terminal.escaped($0))"
                                } ?? "")),
                    ], folded: InspectorFilter.Folded(title: Self.filterText(agent), preview: ""))
            }
            return RowList(all: rows, kept: nil)
        case .detail:
            return .empty
        case .timeline(let address):
            guard let timeline, timeline.address == address else { return .empty }
            let filter = InspectorFilter(page.filter)
            let rows = timeline.entries.map { timelineRow($0, width: width) }.filter { filter.matches(folded: $0.folded) }
            return RowList(all: rows, kept: nil)
        case .list, .allKeys:
            guard let connection else { return .empty }
            let state = connection.state
            let key = RowCacheKey(
                level: page.level, filter: page.filter, width: width, generation: state.generation,
                session: ObjectIdentifier(connection.session), sort: sort)
            if let rowCache, rowCache.key == key { return rowCache.rows }
            var whole = key
            whole.filter = ""
            if unfilteredCache?.key != whole {
                let all = allRows(page.level, state: state, width: width)
                unfilteredCache = (whole, all, InspectorFilterIndex(all.map(\.folded)))
            }
            guard var cache = unfilteredCache else { return .empty }
            // A filter narrows the rows built once, with the model's index: a keystroke costs
            // a match per row still shown, not building or copying every row again. (The
            // cache lets go of the index while it narrows, so its memory is not copied.)
            unfilteredCache = nil
            let kept = cache.index.kept(by: InspectorFilter(page.filter))
            unfilteredCache = cache
            let rows = RowList(all: cache.rows, kept: kept)
            rowCache = (key, rows)
            return rows
        }
    }

    /// What a filter of the agent list matches.
    private static func filterText(_ agent: InspectorAgent) -> String {
        "\(agent.record.pid) \(agent.record.name) \(agent.access)"
    }

    /// Every row of a list level, unfiltered.
    private func allRows(_ shown: Level, state: InspectorState, width: Int) -> [Row] {
        let keyColumn = keyWidth(width)
        // Previews are cut to what a line shows: a 10 MB value costs one line of text.
        let previewWidth = max(10, width - keyColumn - 11 - 4)
        switch shown {
        case .list(let level):
            let titleColumn = containerColumn(width)
            let listed = state.rows(level, previewLimit: previewWidth)
            var rows = (level.isSortable ? state.sorted(listed, by: sort) : listed).map { row in
                Row(
                    target: .model(row), cells: cells(row, level: level, width: width, titleColumn: titleColumn),
                    changed: row.has(.changed), folded: InspectorFilter.Folded(row))
            }
            if level == .scanners {
                let all = state.segments().first?.count ?? state.items.count
                rows.insert(
                    Row(
                        target: .allKeys,
                        cells: [
                            .plain(Terminal.pad("All keys", 14) + Terminal.pad("every container", 26)),
                            .plain(Terminal.pad(String(all), 8)),
                            ScreenBuffer.Segment(text: "one filter across containers", style: .dim),
                        ], folded: InspectorFilter.Folded(title: "All keys", preview: "")), at: 0)
            }
            return rows
        default:
            return state.sorted(state.tableRows(scanner: nil, container: nil, previewLimit: previewWidth), by: sort).map {
                Row(
                    target: .model($0), cells: allKeysCells($0, width: width), changed: $0.has(.changed),
                    folded: InspectorFilter.Folded($0))
            }
        }
    }

    private func cells(_ row: InspectorRow, level: InspectorLevel, width: Int, titleColumn: Int)
        -> [ScreenBuffer.Segment]
    {
        switch level {
        case .scanners:
            var notes: [String] = []
            if !row.preview.isEmpty { notes.append(row.preview) }
            if row.has(.readOnly) { notes.append("read-only") }
            if let problem = row.problem { notes.append(problem) }
            return [
                .plain(
                    Terminal.pad(Terminal.escaped(row.title), 14)
                        + Terminal.pad(Terminal.escaped(row.subtitle ?? ""), 26)
                        + Terminal.pad(String(row.count ?? 0), 8)),
                ScreenBuffer.Segment(text: Terminal.escaped(notes.joined(separator: ", ")), style: .dim),
            ]
        case .containers:
            var notes: [String] = []
            if row.has(.readOnly) { notes.append("read-only") }
            if let problem = row.problem { notes.append(problem) }
            if let warning = row.sizeWarning { notes.append(warning) }
            let style: ScreenBuffer.Style = row.problem != nil ? .error : row.sizeWarning != nil ? .warning : .dim
            return [
                .plain(
                    Terminal.pad(Terminal.escaped(row.title), titleColumn) + Terminal.pad(String(row.count ?? 0), 8)),
                ScreenBuffer.Segment(text: Terminal.escaped(notes.joined(separator: ", ")), style: style),
            ]
        case .keys, .value:
            let keyColumn = keyWidth(width)
            let flags = row.labels
            let flagText = flags.isEmpty ? "" : "  (" + flags.joined(separator: ", ") + ")"
            // The marks stay whole: the value gives way.
            let room = max(8, width - 2 - keyColumn - 11 - flagText.count)
            let preview = Terminal.escaped(row.preview)
            let shown = preview.count > room ? String(preview.prefix(room - 1)) + "…" : preview
            return [
                .plain(Terminal.pad(ScreenBuffer.clip(Terminal.escaped(row.title), to: keyColumn - 1).0, keyColumn)),
                ScreenBuffer.Segment(text: Terminal.pad(row.type?.rawValue ?? "", 11), style: .dim),
                ScreenBuffer.Segment(text: shown, style: row.has(.unset) ? .dim : .plain),
                ScreenBuffer.Segment(text: flagText, style: .dim),
            ]
        }
    }

    /// A change of a key's timeline as a row: `#7     10:00:05  set by jarvis-cli (unix): "dark" → "light"`.
    private func timelineRow(_ entry: InspectorTimelineEntry, width: Int) -> Row {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDateInToday(entry.time) ? "HH:mm:ss" : "MMM d"
        let change = "\(entry.what)\(entry.pointer.map { " " + $0 } ?? "")\(entry.byline): \(entry.before) → \(entry.after)"
        let state = entry.state.map { "  (\($0))" } ?? ""
        return Row(
            target: .change(entry),
            cells: [
                .plain(Terminal.pad("#\(entry.id)", 7)),
                ScreenBuffer.Segment(text: Terminal.pad(formatter.string(from: entry.time), 10), style: .dim),
                .plain(Terminal.escaped(change)),
                ScreenBuffer.Segment(text: Terminal.escaped(state), style: .dim),
            ], folded: InspectorFilter.Folded(title: change, preview: state))
    }

    private func allKeysCells(_ row: InspectorRow, width: Int) -> [ScreenBuffer.Segment] {
        let keyColumn = allKeysKeyWidth(width)
        let containerColumn = containerWidth(width)
        let flags = row.labels
        let flagText = flags.isEmpty ? "" : "  (" + flags.joined(separator: ", ") + ")"
        let room = max(8, width - 2 - keyColumn - containerColumn - 11 - flagText.count)
        let preview = Terminal.escaped(row.preview)
        let shown = preview.count > room ? String(preview.prefix(room - 1)) + "…" : preview
        return [
            .plain(Terminal.pad(ScreenBuffer.clip(Terminal.escaped(row.title), to: keyColumn - 1).0, keyColumn)),
            ScreenBuffer.Segment(
                text: Terminal.pad(
                    Self.middleClip(Terminal.escaped(row.subtitle ?? ""), to: containerColumn - 1), containerColumn),
                style: .dim),
            ScreenBuffer.Segment(text: Terminal.pad(row.type?.rawValue ?? "", 11), style: .dim),
            ScreenBuffer.Segment(text: shown, style: row.has(.unset) ? .dim : .plain),
            ScreenBuffer.Segment(text: flagText, style: .dim),
        ]
    }

    /// The lines of a detail page: facts, then the whole value or why it is not shown.
    func detailLines(_ address: PreferenceAddress, _ pointer: JSONPointer) -> [String] {
        guard let connection else { return ["(this key no longer exists)"] }
        let state = connection.state
        let key = RowCacheKey(
            level: .detail(address, pointer), filter: "", width: terminal.size.columns, generation: state.generation,
            session: ObjectIdentifier(connection.session))
        if let detailCache, detailCache.key == key { return detailCache.lines }
        // Long lines wrap (a 10 MB string is one line): every character can be scrolled to.
        let room = max(10, terminal.size.columns - 3)
        let lines = buildDetailLines(state, address, pointer).flatMap { Self.chunks($0, width: room) }
        detailCache = (key, lines)
        return lines
    }

    /// A line cut into pieces of at most `width` characters.
    static func chunks(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        var pieces: [String] = []
        var rest = Substring(line)
        while !rest.isEmpty {
            pieces.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        return pieces
    }

    private func buildDetailLines(_ state: InspectorState, _ address: PreferenceAddress, _ pointer: JSONPointer)
        -> [String]
    {
        guard let detail = state.detail(address, pointer) else {
            return ["(this key no longer exists)"]
        }
        var lines = detail.facts.map { Terminal.pad($0.label, 10) + Terminal.escaped($0.text) }
        lines.append("")
        if let text = detail.valueText {
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { Terminal.escaped(String($0)) }
        }
        if let note = detail.note {
            lines.append(Terminal.escaped(note))
            if detail.row.isRevealable { lines.append("press r to reveal") }
        }
        return lines
    }
}
