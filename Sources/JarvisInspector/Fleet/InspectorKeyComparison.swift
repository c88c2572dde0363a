import Foundation
import JarvisCore
import JarvisRemote

/// One key (or a place inside it) compared across agents: what each agent holds there, which
/// differ from the agent in view, and the guarded writes of "Set on all" and "Copy to…".
///
/// The agent in view comes first; each other agent's line is marked when its value differs
/// from it (a key missing there differs too). This is the one rule of "differs" for every
/// face: the browser's comparison and the terminal inspector's lines under a detail
/// (``textLines(width:unmatched:escape:)``). Reads and writes are fan-outs (``FleetRun``):
/// every agent at once on its own connection, within one bound, so an agent that does not
/// answer is said to, and never delays the others' lines. A write to an agent is guarded by
/// the revision the comparison read there: a key someone changed there since is a conflict
/// on that agent's line, never overwritten.
package struct InspectorKeyComparison: Sendable, Hashable {
    /// What a read found on one agent.
    package enum Seen: Sendable, Hashable {
        /// The key, as that agent holds it (its value nil when masked).
        case item(PreferenceItem)
        /// No such key there.
        case absent
        /// Nothing was learnt (no answer, an error): nothing is written there.
        case unknown
    }

    /// One agent's line.
    package struct Line: Sendable, Hashable {
        /// The agent.
        package var agent: AgentRecord
        /// How it is shown (``FleetRun/labels(for:)``: `[PID]` where two share a name).
        package var label: String
        /// Whether it is the agent in view.
        package var own: Bool
        /// What it answered; nil while it is being read.
        package var outcome: FleetOutcome.Result?
        /// What was read there, for a write's guard.
        package var seen: Seen
        /// Whether its value differs from the agent in view's.
        package var differs: Bool
    }

    /// The key.
    package var address: PreferenceAddress
    /// The place inside it (whole: the key).
    package var pointer: JSONPointer
    /// One line per agent, the agent in view first.
    package private(set) var lines: [Line]

    /// A comparison of `address` on `agents`, none read yet; `own` is the agent in view
    /// (listed first), when it is among them.
    package init(address: PreferenceAddress, pointer: JSONPointer, agents: [AgentRecord], own: AgentRecord?) {
        self.address = address
        self.pointer = pointer
        let ordered = (own.map { own in agents.filter { $0 == own } } ?? []) + agents.filter { $0 != own }
        let labels = FleetRun.labels(for: ordered)
        lines = ordered.indices.map { index in
            Line(
                agent: ordered[index], label: labels[index], own: ordered[index] == own, outcome: nil, seen: .unknown,
                differs: false)
        }
    }

    /// The place as the wire names it.
    package var place: Wire.Place { Wire.Place(address, pointer: pointer.isWhole ? nil : pointer) }

    /// The agents compared, in the order of the lines.
    package var agents: [AgentRecord] { lines.map(\.agent) }

    /// Whether every agent has a line read.
    package var isComplete: Bool { lines.allSatisfy { $0.outcome != nil } }

    /// Takes what one agent answered; the marks of every line follow.
    package mutating func record(_ agent: AgentRecord, _ outcome: FleetOutcome.Result, seen: Seen) {
        guard let index = lines.firstIndex(where: { $0.agent == agent }) else { return }
        lines[index].outcome = outcome
        lines[index].seen = seen
        mark()
    }

    /// Forgets the agents that are gone and adds those that came, keeping what was read of
    /// the others (a read under way replaces it agent by agent).
    package mutating func follow(_ agents: [AgentRecord], own: AgentRecord?) {
        var next = InspectorKeyComparison(address: address, pointer: pointer, agents: agents, own: own)
        for index in next.lines.indices {
            if let known = lines.first(where: { $0.agent == next.lines[index].agent }) {
                next.lines[index].outcome = known.outcome
                next.lines[index].seen = known.seen
            }
        }
        next.mark()
        self = next
    }

    /// Marks the lines whose value differs from the reference: the agent in view's, else the
    /// first agent that answered with one. An agent that did not answer is not marked.
    private mutating func mark() {
        let reference = lines.first { $0.own && $0.seen != .unknown } ?? lines.first { $0.seen != .unknown }
        for index in lines.indices {
            guard let reference, lines[index].seen != .unknown, lines[index].agent != reference.agent else {
                lines[index].differs = false
                continue
            }
            lines[index].differs = !Self.same(lines[index].seen, reference.seen, pointer: pointer)
        }
    }

    /// Whether two agents hold the same value at the place (by content, as ``SnapshotDiff``
    /// compares); two absent keys are the same.
    static func same(_ left: Seen, _ right: Seen, pointer: JSONPointer) -> Bool {
        switch (left, right) {
        case (.absent, .absent): return true
        case (.item(let one), .item(let other)):
            guard let first = one.value, let second = other.value else { return one.revision == other.revision }
            return one.type == other.type && Revision(of: first) == Revision(of: second)
        default: return false
        }
    }

    /// One line of text per agent (the terminal inspector's detail): `AGENT  VALUE`, or
    /// `AGENT  [STATUS] REASON` where it did not answer with one, `AGENT  reading…` while it
    /// is read, then `TERM  [not running] REASON` per term of `unmatched`; a line that
    /// ``Line/differs`` is marked `≠`. No line is wider than `width`; `escape` makes a cell
    /// safe to print.
    package func textLines(width: Int, unmatched: [String] = [], escape: (String) -> String = { $0 }) -> [String] {
        let rows =
            lines.map { (label: escape($0.label), outcome: $0.outcome, differs: $0.differs) }
            + unmatched.map { term in
                (
                    label: escape(term),
                    outcome: FleetOutcome.Result(.notRunning, reason: FleetRun.unmatchedReason(term)),
                    differs: false
                )
            }
        let labelWidth = min(max(5, rows.map(\.label.count).max() ?? 0), max(5, width / 3))
        return rows.map { row in
            let shown =
                switch row.outcome {
                case nil: "reading…"
                case let outcome? where outcome.status.succeeded: outcome.value ?? ""
                case let outcome?: "[\(outcome.status.rawValue)] \(outcome.reason ?? outcome.value ?? "")"
                }
            let line =
                FleetReport.cell(row.label, labelWidth) + "  " + (row.differs ? "≠ " : "  ")
                + escape(FleetReport.oneLine(shown))
            return FleetReport.cut(line, width).trimmingTrailingSpaces
        }
    }

    // MARK: - Reading

    /// Reads the place on every agent of the comparison at once; `each` is told of every
    /// agent's answer as it comes (on the agent's thread), and the return holds every line,
    /// an agent silent past `bound` as ``FleetOutcome/Status/noAnswer``.
    package func read(
        bound: Duration = FleetRun.defaultBound, clientName: String,
        each: @escaping @Sendable (AgentRecord, FleetOutcome.Result, Seen) -> Void
    ) -> [(AgentRecord, FleetOutcome.Result, Seen)] {
        let place = place
        let seen = Locked<[AgentRecord: Seen]>([:])
        let report = FleetRun.run(.init(agents: agents, unmatched: []), bound: bound, clientName: clientName) {
            record, client throws(JarvisError) -> FleetOutcome.Result in
            let result: FleetOutcome.Result
            let found: Seen
            do throws(JarvisError) {
                let item = try client.get(place)
                found = .item(item)
                result = FleetOutcome.Result(.ok, value: InspectorState.preview(item, limit: 200))
            } catch let error where error.code == .notFound {
                found = .absent
                result = FleetOutcome.Result(.notFound, reason: "not on this agent")
            }
            seen.withLock { $0[record] = found }
            each(record, result, found)
            return result
        }
        let found = seen.withLock { $0 }
        return zip(agents, report.outcomes).map { agent, outcome in
            let result = FleetOutcome.Result(
                outcome.status, value: outcome.value, reason: outcome.reason, detail: outcome.detail)
            return (agent, result, result.status == .noAnswer ? .unknown : found[agent] ?? .unknown)
        }
    }

    // MARK: - Writing

    /// Writes `value` (the agent in view's, at the place) to `targets` at once, each guarded
    /// by the revision this comparison read there: a production or read-only agent is
    /// refused by name, an agent whose value was not read gets nothing, an agent that already
    /// holds the value is left as it is, and a key changed since the read is a conflict. An
    /// agent where the key is absent is written only with `create`, as a fan-out of the CLI.
    /// - Parameters:
    ///   - change: the fan-out's id, recorded in each agent's journal entry (``FleetRun/newChange()``).
    /// - Returns: one outcome per target, in their order; nothing is sent to any other agent.
    package func copy(
        _ value: PreferenceValue, to targets: [AgentRecord], create: Bool = false, change: String? = nil,
        bound: Duration = FleetRun.defaultBound, clientName: String
    ) -> FleetReport {
        let seen = Dictionary(lines.map { ($0.agent, $0.seen) }, uniquingKeysWith: { first, _ in first })
        let place = place
        let pointer = pointer
        return FleetRun.run(.init(agents: targets, unmatched: []), bound: bound, clientName: clientName, writes: true) {
            record, client throws(JarvisError) -> FleetOutcome.Result in
            if let refusal = FleetOutcome.Result.editingRefusal(client.helloResult.capabilities) { return refusal }
            let expected: Revision
            let before: PreferenceItem?
            switch seen[record] ?? .unknown {
            case .unknown:
                return FleetOutcome.Result(
                    .failed, reason: "its value was not read (no answer?); compare again first; nothing was written")
            case .absent:
                guard create else {
                    return FleetOutcome.Result(.notFound, reason: "absent, not created")
                }
                expected = .absent
                before = nil
            case .item(let item):
                if Self.same(.item(item), .item(Self.item(value, like: item)), pointer: pointer) {
                    return FleetOutcome.Result(.ok, value: "already " + InspectorState.preview(item, limit: 60))
                }
                expected = item.revision
                before = item
            }
            let written = try client.set(place, to: value, expectedRevision: expected, change: change)
            return FleetOutcome.Result(
                .changed,
                value: (before.map { InspectorState.preview($0, limit: 60) } ?? "(absent)") + " → "
                    + InspectorState.preview(written, limit: 60))
        }
    }

    /// `value` as an item at `item`'s address, to compare with it.
    private static func item(_ value: PreferenceValue, like item: PreferenceItem) -> PreferenceItem {
        var copy = item
        copy.value = value
        copy.type = value.type
        return copy
    }
}
