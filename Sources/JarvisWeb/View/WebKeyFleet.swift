import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

/// A page's key compared on every agent (``InspectorKeyComparison``), read in the background
/// so that each agent's line comes as it answers and an agent that does not answer holds up
/// no other line and no intent of the page; read again when a change of the key arrives, and
/// on a short poll while the page's live stream is open.
///
/// Thread-safe: the comparison sits in a lock that a read's threads and the page's lane
/// share; a read tells the page through `changed` when a line came.
final class WebKeyFleet: Sendable {
    /// How long a read waits for the slowest agent.
    static let bound = FleetRun.defaultBound
    /// How long after a read the next one starts, while the page is live.
    static let poll: Duration = .seconds(2)

    private struct State {
        var comparison: InspectorKeyComparison
        var reading = false
        var finished: ContinuousClock.Instant?
        /// The last write's outcomes and summary.
        var written: FleetReport?
        /// The page closed the comparison: reads still under way are dropped.
        var closed = false
    }

    private let state: Locked<State>
    /// Told whenever a line or a read's end came (the page redraws).
    private let changed: @Sendable () -> Void

    init(_ comparison: InspectorKeyComparison, changed: @escaping @Sendable () -> Void) {
        state = Locked(State(comparison: comparison))
        self.changed = changed
    }

    var comparison: InspectorKeyComparison { state.withLock { $0.comparison } }
    var written: FleetReport? { state.withLock { $0.written } }
    var isReading: Bool { state.withLock { $0.reading } }

    /// The place compared.
    var target: InspectorRow.Target {
        let comparison = comparison
        return comparison.pointer.isWhole
            ? .key(comparison.address) : .member(comparison.address, comparison.pointer)
    }

    /// Starts a read of every agent running now, unless one is under way.
    func refresh(agents: [AgentRecord], own: AgentRecord?) {
        let comparison = state.withLock { state -> InspectorKeyComparison? in
            guard !state.reading, !state.closed else { return nil }
            state.comparison.follow(agents, own: own)
            state.reading = true
            return state.comparison
        }
        guard let comparison else { return }
        changed()
        Thread.detachNewThread { [self] in
            let lines = comparison.read(bound: Self.bound, clientName: "jarvis-web") { [self] agent, outcome, seen in
                state.withLock { $0.comparison.record(agent, outcome, seen: seen) }
                changed()
            }
            state.withLock { state in
                for (agent, outcome, seen) in lines { state.comparison.record(agent, outcome, seen: seen) }
                state.reading = false
                state.finished = .now
            }
            changed()
        }
    }

    /// Whether the poll is due: no read under way, and the last ended a while ago.
    func pollDue(now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in !state.reading && (state.finished.map { now - $0 >= Self.poll } ?? false) }
    }

    /// Writes `value` to `targets`, each guarded by what the comparison read there (waits
    /// for the write's fan-out, at most its bound), keeps the outcomes to show, and reads
    /// every agent again. `create`: also where the key is absent (the page asked first).
    func copy(_ value: PreferenceValue, to targets: [AgentRecord], create: Bool) -> FleetReport {
        let report = comparison.copy(
            value, to: targets, create: create, change: FleetRun.newChange(), bound: Self.bound,
            clientName: "jarvis-web")
        state.withLock { $0.written = report }
        return report
    }

    /// Drops the comparison: a read under way is ignored.
    func close() {
        state.withLock { $0.closed = true }
    }
}
