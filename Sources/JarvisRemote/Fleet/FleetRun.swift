import Foundation
import JarvisCore

/// Runs one operation on several agents at the same time, each on its own connection and
/// thread, and waits for them at most a bound: an agent that has not finished by then (stopped,
/// hung, slow) is reported as ``FleetOutcome/Status/noAnswer`` and its connection closed, and
/// never holds up the others past the bound.
///
/// Only the agents given are reached: an agent that starts while the fan-out runs is not one
/// of them, and one that stops is reported as failed.
public enum FleetRun {
    /// The default bound: how long a fan-out waits for its slowest agent.
    public static let defaultBound: Duration = .seconds(5)

    /// The prefix of a fan-out's change name (`change` on each write), as each agent's journal
    /// records it: `jarvis undo --agents` takes back the newest fan-out by it.
    package static let changePrefix = "fanout-"

    /// A new fan-out's id: the change name every agent it writes records.
    package static func newChange() -> String { changePrefix + UUID().uuidString }

    /// Runs `body` on every agent of `resolved` at once.
    /// - Parameters:
    ///   - bound: how long the whole fan-out may take; each agent has until `now + bound`.
    ///   - clientName: how each agent's audit trail names the connection.
    ///   - writes: whether `body` writes: an agent that did not answer in time is then also
    ///     said to maybe apply a write it was already sent, once it runs again, if it answered
    ///     its hello (`body` had begun); one that never did is said to have been sent no write.
    ///   - keepingConnections: leave each connection open once `body` returned in time (a
    ///     watch goes on reading it); the caller's body then owns it.
    ///   - body: what to do on one agent, given its record and a connection that said hello.
    ///     It runs on a thread of its own; an error it throws becomes that agent's outcome
    ///     (see ``FleetOutcome/Result/init(_:)``).
    /// - Returns: one outcome per agent, in the order of `resolved.agents`, then one
    ///   ``FleetOutcome/Status/notRunning`` per unmatched term.
    public static func run(
        _ resolved: AgentSelection.Resolved, bound: Duration = defaultBound, clientName: String = "jarvis",
        writes: Bool = false, keepingConnections: Bool = false, _ body: @escaping @Sendable (AgentRecord, JarvisClient) throws(JarvisError) -> FleetOutcome.Result
    ) -> FleetReport {
        let agents = resolved.agents
        let deadline = ContinuousClock.now + bound
        let state = Locked(State(count: agents.count))
        let group = DispatchGroup()
        for (index, record) in agents.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let result = Self.result(
                    of: record, index: index, deadline: deadline, state: state, clientName: clientName,
                    keep: keepingConnections, body)
                state.withLock { $0.results[index] = $0.results[index] ?? result }
            }
        }
        _ = group.wait(timeout: DispatchTime.now() + .nanoseconds(Int(clamping: bound.nanoseconds)))
        // What has not finished by now is cut off: its connection closed, its result fixed.
        let (results, stragglers, greeted) = state.withLock {
            state -> ([FleetOutcome.Result?], [JarvisClient], Set<Int>) in
            state.closed = true
            let open = state.clients.filter { state.results[$0.key] == nil }.map(\.value)
            return (state.results, open, Set(state.clients.keys))
        }
        for client in stragglers { client.close() }
        let labels = labels(for: agents)
        var outcomes = agents.indices.map { index in
            // A connection that timed out on its own at the bound reads as one cut off by it.
            let result =
                results[index].flatMap { $0.status == .noAnswer ? nil : $0 }
                ?? FleetOutcome.Result(
                    .noAnswer, reason: silentReason(bound, writes: writes, greeted: greeted.contains(index)))
            return FleetOutcome(
                agent: labels[index], pid: agents[index].pid, identity: agents[index].identity, status: result.status,
                value: result.value, reason: result.reason, detail: result.detail)
        }
        for term in resolved.unmatched {
            outcomes.append(
                FleetOutcome(
                    agent: term, status: .notRunning,
                    reason: unmatchedReason(term)))
        }
        return FleetReport(outcomes)
    }

    /// Why an agent cut off at the bound has no result; for a write, whether one may have been
    /// sent to it: only an agent that answered its hello (`greeted`) was given any.
    private static func silentReason(_ bound: Duration, writes: Bool, greeted: Bool) -> String {
        let reason = "no answer within \(seconds(bound)) (stopped or busy?)"
        guard writes else { return reason }
        return reason
            + (greeted
                ? "; a write already sent to it may still apply when it runs again"
                : "; it never answered its hello, so no write was sent to it")
    }

    /// Why a term of `--agents` has no outcome of its own: it matched no running agent.
    public static func unmatchedReason(_ term: String) -> String {
        "no running agent matches '\(term)'; `jarvis agents` lists them"
    }

    /// How each agent is shown: its name (`@DEVICE` for a Simulator app), with `[PID]` when
    /// another agent of the list would show the same.
    public static func labels(for agents: [AgentRecord]) -> [String] {
        let plain = agents.map { record in record.name + (record.device.map { "@" + $0 } ?? "") }
        var counts: [String: Int] = [:]
        for label in plain { counts[label, default: 0] += 1 }
        return agents.indices.map { index in
            counts[plain[index], default: 0] > 1 ? "\(plain[index])[\(agents[index].pid)]" : plain[index]
        }
    }

    /// What the runner tracks while agents work: the results so far and the connections that
    /// said hello (those whose `body` began).
    private struct State {
        var results: [FleetOutcome.Result?]
        var clients: [Int: JarvisClient] = [:]
        /// Set once the runner stopped waiting; a connection opened after is closed at once.
        var closed = false

        init(count: Int) {
            results = Array(repeating: nil, count: count)
        }
    }

    private static func result(
        of record: AgentRecord, index: Int, deadline: ContinuousClock.Instant, state: Locked<State>,
        clientName: String, keep: Bool,
        _ body: @Sendable (AgentRecord, JarvisClient) throws(JarvisError) -> FleetOutcome.Result
    ) -> FleetOutcome.Result {
        do throws(JarvisError) {
            guard let endpoint = record.endpoint else {
                throw JarvisError(.notFound, "its discovery file names no address it serves on")
            }
            let client = try JarvisClient(
                endpoint: endpoint, clientName: clientName, token: record.token,
                timeout: max(.milliseconds(1), deadline - .now))
            let open = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.clients[index] = client
                return true
            }
            guard open else {
                client.close()
                throw JarvisError(.unavailable, "no answer in time")
            }
            do {
                let result = try body(record, client)
                if !keep || ContinuousClock.now >= deadline { client.close() }
                return result
            } catch {
                client.close()
                throw error
            }
        } catch {
            if error.code == .unavailable, ContinuousClock.now >= deadline {
                return FleetOutcome.Result(.noAnswer, reason: "no answer in time (stopped or busy?)")
            }
            if error.code == .unavailable {
                return FleetOutcome.Result(.failed, reason: "cannot reach it (stopped meanwhile?): \(error.message)")
            }
            return FleetOutcome.Result(error)
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
