import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

extension WebPageState {
    /// The running agents and, among them, the one in view (nil for an agent reached over
    /// the network under another record, or one that is gone).
    func fleetAgents() -> (all: [AgentRecord], own: AgentRecord?) {
        let records = (try? AgentDirectory.running()) ?? []
        let own = connection.flatMap { connection in records.first { $0.serves(connection.endpoint) } }
        return (records, own)
    }

    /// Acts on an intent of the comparisons; false for any other intent.
    mutating func performCompare(_ intent: WebIntent) throws(JarvisError) -> Bool {
        switch intent {
        case .fleetKey(let target):
            guard let address = target.address else { throw JarvisError(.invalidParams, "choose a key") }
            _ = try liveState()
            keyFleet?.close()
            let (agents, own) = fleetAgents()
            let fleet = WebKeyFleet(
                InspectorKeyComparison(address: address, pointer: target.pointer, agents: agents, own: own),
                changed: { [changed, onChange] in
                    changed.withLock { $0 = true }
                    onChange()
                })
            keyFleet = fleet
            selected = target
            fleet.refresh(agents: agents, own: own)
        case .fleetClose:
            keyFleet?.close()
            keyFleet = nil
        case .fleetSetAll, .fleetCopy:
            guard let fleet = keyFleet else {
                throw JarvisError(.invalidParams, "compare the key on every agent first")
            }
            let state = try liveState()
            let comparison = fleet.comparison
            guard let value = state.value(at: comparison.address, comparison.pointer) else {
                throw JarvisError(
                    .invalidParams, "this agent shows no value here to copy (a masked secret, or nothing stored)")
            }
            let others = comparison.lines.filter { !$0.own }
            let chosen: [InspectorKeyComparison.Line]
            var create = false
            if case .fleetSetAll(let asked) = intent { create = asked }
            if case .fleetCopy(let ids, let asked) = intent {
                create = asked
                guard !ids.isEmpty else { throw JarvisError(.invalidParams, "choose the agents to copy to") }
                let unknown = ids.filter { id in !others.contains { String($0.agent.pid) == id } }
                guard unknown.isEmpty else {
                    throw JarvisError(
                        .invalidParams,
                        "not among the agents compared: \(unknown.joined(separator: ", ")); nothing was written")
                }
                chosen = others.filter { ids.contains(String($0.agent.pid)) }
            } else {
                chosen = others
            }
            guard !chosen.isEmpty else { throw JarvisError(.invalidParams, "no other agent to write to") }
            let report = fleet.copy(value, to: chosen.map(\.agent), create: create)
            message = InspectorMessage(
                "\(VisibleText.escaped(comparison.address.key)): " + report.summary,
                report.succeeded ? .info : .error)
            let (agents, own) = fleetAgents()
            fleet.refresh(agents: agents, own: own)
        case .compareAgent(let id):
            let (scanner, container) = try comparedContainer()
            let (agents, own) = fleetAgents()
            guard let record = agents.first(where: { String($0.pid) == id }), record != own else {
                throw JarvisError(.notFound, "choose another running agent to compare with")
            }
            let labels = FleetRun.labels(for: [own ?? record, record])
            comparison = try compare(
                scanner: scanner, container: container, with: .agent(record, label: VisibleText.escaped(labels[1])),
                applied: nil)
        case .compareFile(let name, let text):
            let (scanner, container) = try comparedContainer()
            let side = try InspectorContainerComparison.snapshotSide(
                Array(text.utf8), name: VisibleText.escaped(name), scanner: scanner, container: container)
            comparison = try compare(
                scanner: scanner, container: container,
                with: .file(name: VisibleText.escaped(name), items: side.items, leftOut: side.leftOut), applied: nil)
        case .compareApply(let key):
            guard let shown = comparison else { throw JarvisError(.invalidParams, "compare the container first") }
            guard let difference = shown.result.difference(key) else {
                throw JarvisError(.invalidParams, "'\(VisibleText.escaped(key))' no longer differs; compare again")
            }
            let outcome = try applyDifference(difference)
            comparison = try compare(
                scanner: shown.scanner, container: shown.container, with: shown.other, applied: outcome)
            message = outcome
        case .compareClose:
            comparison = nil
        default:
            return false
        }
        return true
    }

    /// The scope's container: what a comparison compares.
    private func comparedContainer() throws(JarvisError) -> (String, String) {
        guard let scanner = scope.scanner, let container = scope.container else {
            throw JarvisError(.invalidParams, "choose a container in the sidebar first")
        }
        _ = try liveState()
        return (scanner, container)
    }

    private func liveState() throws(JarvisError) -> InspectorState {
        guard let connection else { throw JarvisError(.unavailable, connectProblem ?? "no agent is open") }
        if isGone { throw JarvisError(.unavailable, InspectorMessage.waitingForAgent.text) }
        return connection.session.state
    }

    /// Reads the container here and on the other side (an agent: both at once, within the
    /// fan-out's bound) and compares them.
    private func compare(
        scanner: String, container: String, with other: WebContainerCompare.Other, applied: InspectorMessage?
    ) throws(JarvisError) -> WebContainerCompare {
        let (_, own) = fleetAgents()
        guard let own else {
            throw JarvisError(.unavailable, "comparing needs the agent in view to run on this computer")
        }
        var agents = [own]
        if case .agent(let record, _) = other { agents.append(record) }
        let read = Locked<[AgentRecord: [PreferenceItem]]>([:])
        let report = FleetRun.run(.init(agents: agents), bound: WebKeyFleet.bound, clientName: "jarvis-web") {
            record, client throws(JarvisError) -> FleetOutcome.Result in
            let items = try InspectorContainerComparison.items(scanner: scanner, container: container, with: client)
            read.withLock { $0[record] = items }
            return FleetOutcome.Result(.ok)
        }
        if let failed = report.outcomes.first(where: { !$0.status.succeeded }) {
            let side = failed.pid == own.pid ? "this agent" : "agent \(failed.agent)"
            throw JarvisError(
                .unavailable, "cannot compare: \(side): \(failed.status.rawValue): \(failed.reason ?? "")")
        }
        let items = read.withLock { $0 }
        let result: InspectorContainerComparison
        switch other {
        case .agent(let record, _):
            result = InspectorContainerComparison(here: items[own] ?? [], there: items[record] ?? [])
        case .file(_, let fileItems, let leftOut):
            result = InspectorContainerComparison(here: items[own] ?? [], there: fileItems, leftOut: leftOut)
        }
        return WebContainerCompare(
            scanner: scanner, container: container, other: other, result: result, applied: applied)
    }

    /// Applies one difference to the agent in view alone, guarded by the revision the
    /// comparison read; what happened, as the status line says it.
    private func applyDifference(_ difference: InspectorContainerComparison.Difference) throws(JarvisError)
        -> InspectorMessage
    {
        let (_, own) = fleetAgents()
        guard let own else {
            throw JarvisError(.unavailable, "comparing needs the agent in view to run on this computer")
        }
        let report = FleetRun.run(
            .init(agents: [own]), bound: WebKeyFleet.bound, clientName: "jarvis-web", writes: true
        ) {
            _, client throws(JarvisError) -> FleetOutcome.Result in
            if let refusal = FleetOutcome.Result.editingRefusal(client.helloResult.capabilities) { return refusal }
            let item = try InspectorContainerComparison.apply(difference, with: client)
            let done =
                difference.kind == .removed
                ? "removed" : "now " + InspectorState.preview(item, limit: 60)
            return FleetOutcome.Result(.changed, value: done)
        }
        let key = VisibleText.escaped(difference.address.key)
        guard let outcome = report.outcomes.first else { return InspectorMessage("\(key): nothing happened", .error) }
        if outcome.status.succeeded { return InspectorMessage("\(key): \(outcome.value ?? "applied")", .info) }
        return InspectorMessage("\(key): \(outcome.status.rawValue): \(outcome.reason ?? "")", .error)
    }

    // MARK: - Views

    /// The key compared on every agent, while it is the key in view.
    func fleetView() -> WebFleet? {
        guard let fleet = keyFleet else { return nil }
        let comparison = fleet.comparison
        let ownValue = connection?.session.state.value(at: comparison.address, comparison.pointer)
        return WebFleet(
            title: VisibleText.escaped(WebDetail.title(fleet.target)) + " on every agent",
            lines: comparison.lines.map { line in
                WebFleetLine(
                    id: String(line.agent.pid), agent: VisibleText.escaped(line.label), own: line.own,
                    status: line.outcome?.status.rawValue ?? "reading", value: line.outcome?.value,
                    reason: line.outcome?.reason, differs: line.differs)
            },
            canCopy: ownValue != nil && !isGone,
            results: fleet.written.map { report in
                report.outcomes.map { outcome in
                    // Named as in the comparison: two agents of one name stay apart there.
                    let label = comparison.lines.first { $0.agent.pid == outcome.pid }?.label ?? outcome.agent
                    return WebFleetLine(
                        id: outcome.pid.map(String.init) ?? "", agent: VisibleText.escaped(label), own: false,
                        status: outcome.status.rawValue, value: outcome.value, reason: outcome.reason, differs: false)
                }
            },
            summary: fleet.written?.summary)
    }

    /// The container compared, or what the page offers to compare it with.
    func comparisonView() -> WebComparison? {
        guard let comparison else { return nil }
        let result = comparison.result
        return WebComparison(
            title: VisibleText.escaped(comparison.container) + ": this agent ↔ " + comparison.otherLabel,
            there: comparison.otherLabel,
            differences: result.differences.map { difference in
                WebDifference(
                    key: difference.address.key, title: VisibleText.escaped(difference.address.key),
                    kind: difference.kind.rawValue,
                    here: difference.here.map { InspectorState.preview($0, limit: 120) },
                    there: difference.there.map { InspectorState.preview($0, limit: 120) },
                    apply: canEdit && difference.blocked == nil ? difference.applyLabel : nil,
                    blocked: difference.blocked)
            },
            unchanged: result.unchanged, notCompared: result.notCompared,
            applied: comparison.applied.map(WebMessage.init))
    }

    /// What "Compare…" offers while a container is in view.
    func compareOffer() -> WebCompareOffer? {
        guard connection != nil, let container = scope.container, scope.scanner != nil else { return nil }
        let limit = InspectorContainerComparison.maxSnapshotBytes
        return WebCompareOffer(
            container: VisibleText.escaped(container), snapshotLimit: limit,
            tooLarge: InspectorContainerComparison.tooLarge(name: "the file", bytes: nil).message)
    }
}

extension AgentRecord {
    /// Whether this agent listens at `endpoint` (its Unix socket or its TCP address).
    func serves(_ endpoint: Endpoint) -> Bool {
        self.endpoint == endpoint || tcp.flatMap { try? Endpoint(parsing: $0) } == endpoint
    }
}

extension WebPageState {
    /// Reads the compared key on every agent again when a change of it arrived here, or when
    /// the poll is due (asked once a second while the page's live stream is open).
    mutating func refreshFleet(now: ContinuousClock.Instant) {
        guard let fleet = keyFleet, let state = connection?.session.state, !fleet.isReading else { return }
        let comparison = fleet.comparison
        let here = state.shown(comparison.address)
        var changedHere = false
        switch comparison.lines.first(where: \.own)?.seen {
        case .item(let item)?: changedHere = item.revision != here?.revision
        case .absent?: changedHere = here.map { !InspectorState.isUnset($0) } ?? false
        default: break
        }
        guard changedHere || fleet.pollDue(now: now) else { return }
        let (agents, own) = fleetAgents()
        fleet.refresh(agents: agents, own: own)
    }
}
