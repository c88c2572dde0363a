import JarvisCore

/// The outcomes of one fan-out, one per agent, and how a face shows them: a table that fits
/// a width, JSON, and an exit status that is 0 only when every agent did what was asked.
public struct FleetReport: Sendable, Hashable {
    /// One outcome per agent named, in the order the agents were listed, then one per term of
    /// `--agents` that matched no agent.
    public var outcomes: [FleetOutcome]

    /// A report.
    public init(_ outcomes: [FleetOutcome]) {
        self.outcomes = outcomes
    }

    /// Whether every agent did what was asked.
    public var succeeded: Bool { !outcomes.isEmpty && outcomes.allSatisfy(\.status.succeeded) }

    /// 0 when every agent did what was asked; 1 otherwise (and for a fan-out that reached no
    /// agent at all).
    public var exitStatus: Int32 { succeeded ? 0 : 1 }

    /// The table: a header, then `AGENT  RESULT  VALUE OR REASON`, one line per agent, no
    /// line wider than `width`. The agent column takes at most a third of the width; a cell
    /// cut short ends with `…`. `escape` makes a cell safe to print (control characters).
    public func table(width: Int = 80, escape: (String) -> String = { $0 }) -> [String] {
        let width = max(width, 40)
        let rows = outcomes.map { outcome in
            [escape(outcome.agent), outcome.status.rawValue, escape(Self.oneLine(outcome.reason ?? outcome.value ?? ""))]
        }
        let agentWidth = min(max(5, rows.map { $0[0].count }.max() ?? 0), width / 3)
        let statusWidth = max(6, rows.map { $0[1].count }.max() ?? 0)
        let rest = width - agentWidth - statusWidth - 4
        let header = [Self.cell("AGENT", agentWidth), Self.cell("RESULT", statusWidth), "VALUE OR REASON"]
        return ([header] + rows.map { [Self.cell($0[0], agentWidth), Self.cell($0[1], statusWidth), Self.cut($0[2], rest)] })
            .map { $0.joined(separator: "  ").trimmingTrailingSpaces }
    }

    /// A one-line summary: `3 of 4 agents: changed` or which went otherwise.
    public var summary: String {
        let done = outcomes.filter(\.status.succeeded).count
        var counts: [(FleetOutcome.Status, Int)] = []
        for outcome in outcomes where !outcome.status.succeeded {
            if let index = counts.firstIndex(where: { $0.0 == outcome.status }) {
                counts[index].1 += 1
            } else {
                counts.append((outcome.status, 1))
            }
        }
        let agents = outcomes.filter { $0.status != .notRunning }.count
        var text = "\(done) of \(agents) agent\(agents == 1 ? "" : "s") did it"
        if !counts.isEmpty { text += "; " + counts.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ") }
        return text
    }

    /// `{"ok":BOOL,"agents":[…]}`: one entry per agent (see ``FleetOutcome/json``).
    public var json: JSONValue {
        .object(["ok": .bool(succeeded), "agents": .array(outcomes.map(\.json))])
    }

    /// Text on one line: line breaks and tabs become spaces.
    package static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// Text padded or cut to exactly `width` characters.
    package static func cell(_ text: String, _ width: Int) -> String {
        let cut = cut(text, width)
        return cut + String(repeating: " ", count: max(0, width - cut.count))
    }

    /// Text cut to at most `width` characters, ending with `…` when cut.
    package static func cut(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text }
        return width > 1 ? String(text.prefix(width - 1)) + "…" : String(text.prefix(max(0, width)))
    }
}

extension String {
    /// The text without the spaces it ends with.
    package var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
