import Foundation
import JarvisCore
import JarvisRemote

extension Inspector {
    /// One selectable line of a list page.
    struct Row {
        enum Target {
            case agent(AgentRecord)
            case scanner(String)
            case container(String, String)
            case key(PreferenceAddress)
        }
        var target: Target
        var cells: [ScreenBuffer.Segment]
        /// What `/` matches against.
        var filterText: String
        var changed = false
    }

    /// The header line above a list, for the page's level.
    func columnHeader(_ level: Level, width: Int) -> String {
        switch level {
        case .agents: return "  " + Terminal.pad("PID", 8) + Terminal.pad("NAME", 24) + "STARTED"
        case .scanners:
            return "  " + Terminal.pad("SCANNER", 14) + Terminal.pad("NAME", 26) + Terminal.pad("KEYS", 8) + "NOTES"
        case .containers:
            return "  " + Terminal.pad("CONTAINER", max(24, width - 26)) + Terminal.pad("KEYS", 8) + "NOTES"
        case .keys: return "  " + Terminal.pad("KEY", keyWidth(width)) + Terminal.pad("TYPE", 11) + "VALUE"
        case .value: return ""
        }
    }

    func keyWidth(_ width: Int) -> Int { min(36, max(14, width * 3 / 10)) }

    /// The rows of a list page, filtered.
    func rows(for page: Page, width: Int) -> [Row] {
        let all: [Row]
        switch page.level {
        case .agents:
            all = agents.map { record in
                Row(
                    target: .agent(record),
                    cells: [
                        .plain(
                            Terminal.pad(String(record.pid), 8) + Terminal.pad(record.name, 24) + record.started
                                + (record.bundleID.map { "  \(record.device ?? "") \($0)" } ?? ""))
                    ],
                    filterText: "\(record.pid) \(record.name)")
            }
        case .scanners:
            all = model.scanners.map { scanner in
                var notes: [String] = []
                if scanner.isSecret { notes.append("secrets") }
                if !scanner.isWritable { notes.append("read-only") }
                if let reason = scanner.unavailableReason { notes.append(reason) }
                return Row(
                    target: .scanner(scanner.id),
                    cells: [
                        .plain(
                            Terminal.pad(scanner.id, 14) + Terminal.pad(scanner.name, 26)
                                + Terminal.pad(String(model.count(scanner: scanner.id)), 8)),
                        ScreenBuffer.Segment(text: notes.joined(separator: ", "), style: .dim),
                    ],
                    filterText: scanner.id + " " + scanner.name)
            }
        case .containers(let scanner):
            all = model.containers(of: scanner).map { container in
                var notes: [String] = []
                if !container.isWritable { notes.append("read-only") }
                if let problem = container.problem { notes.append(problem) }
                return Row(
                    target: .container(scanner, container.name),
                    cells: [
                        .plain(
                            Terminal.pad(container.name, max(24, width - 26))
                                + Terminal.pad(String(model.count(scanner: scanner, container: container.name)), 8)),
                        ScreenBuffer.Segment(
                            text: notes.joined(separator: ", "), style: container.problem == nil ? .dim : .error),
                    ],
                    filterText: container.name)
            }
        case .keys(let scanner, let container):
            let now = ContinuousClock.now
            let keyColumn = keyWidth(width)
            all = model.items(in: scanner, container).map { stored in
                let item = model.shown(stored.address) ?? stored
                var flags: [String] = []
                if item.layer == .registered { flags.append("default") }
                if let encoding = item.encoding { flags.append(encoding.rawValue) }
                if !item.isWritable { flags.append("read-only") }
                if model.revealed[item.address] != nil { flags.append("revealed") }
                let previewWidth = max(10, width - keyColumn - 11 - 4)
                return Row(
                    target: .key(item.address),
                    cells: [
                        .plain(Terminal.pad(ScreenBuffer.clip(item.address.key, to: keyColumn - 1).0, keyColumn)),
                        ScreenBuffer.Segment(text: Terminal.pad(item.type.rawValue, 11), style: .dim),
                        .plain(ValueText.preview(item, limit: previewWidth)),
                        ScreenBuffer.Segment(
                            text: flags.isEmpty ? "" : "  (" + flags.joined(separator: ", ") + ")", style: .dim),
                    ],
                    filterText: item.address.key + " " + ValueText.preview(item, limit: 200),
                    changed: model.isRecentlyChanged(item.address, now: now))
            }
        case .value:
            all = []
        }
        guard !page.filter.isEmpty else { return all }
        return all.filter { Self.matches(page.filter, $0.filterText) }
    }

    /// A filter matches as a case-insensitive substring, or as a glob when it has `*` or `?`.
    static func matches(_ filter: String, _ text: String) -> Bool {
        if filter.contains("*") || filter.contains("?") {
            return text.split(separator: " ").contains {
                GlobPattern(filter.lowercased()).matches(String($0).lowercased())
            }
        }
        return text.lowercased().contains(filter.lowercased())
    }

    /// The lines of the value page: the whole value, nested values pretty-printed.
    func valueLines(_ address: PreferenceAddress) -> [String] {
        guard let item = model.shown(address) else { return ["(this key no longer exists)"] }
        var lines = [
            "type      \(item.type.rawValue)",
            "revision  \(item.revision.text)",
        ]
        var flags: [String] = [item.layer == .registered ? "registered default" : "stored"]
        if let encoding = item.encoding { flags.append("encoded as \(encoding.rawValue)") }
        flags.append(item.isWritable ? "writable" : "read-only")
        if model.revealed[address] != nil { flags.append("revealed") }
        lines.append("flags     " + flags.joined(separator: ", "))
        lines.append("")
        if let value = item.value {
            lines += ValueText.full(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } else {
            lines.append(ValueText.preview(item, limit: 200))
            lines.append(
                connection?.reveal == true ? "press r to reveal" : "this agent does not allow revealing secrets")
        }
        return lines
    }
}
