import Foundation
import JarvisCore
import JarvisRemote

/// Keeps a picker's list of running agents current while it is shown: an agent that starts
/// appears and one that stops goes, without the user asking.
///
/// A thread of its own reads the discovery folder every ``interval`` and asks only a newly
/// listed agent for its `hello` (what it allows); agents already known keep what they said.
/// A face's key handling never waits for it: the face reads ``agents`` and is told by
/// `onChange` (on the watch's thread) when the list changed. ``stop()`` (or releasing the
/// watch) ends the thread within one interval.
public final class InspectorAgentWatch: Sendable {
    /// How often the discovery folder is read: often enough that a started agent shows up
    /// while the user looks, rarely enough to cost nothing (a folder listing, no connection).
    public static let interval: Duration = .seconds(1)

    private struct State {
        var agents: [InspectorAgent]
        var stopped = false
    }

    private let state: Locked<State>
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Starts watching from `agents`, the list the face shows now.
    /// - Parameters:
    ///   - token: the TCP token for agents reached over TCP; nil uses each record's.
    ///   - interval: the time between two reads of the discovery folder.
    ///   - environment: where the discovery folder is (`JARVIS_RUNTIME_DIR`, …).
    ///   - onChange: told, on the watch's thread, after the list changed.
    public init(
        agents: [InspectorAgent], token: String? = nil, interval: Duration = InspectorAgentWatch.interval,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        onChange: @escaping @Sendable () -> Void
    ) {
        state = Locked(State(agents: agents))
        let nanoseconds = Int(clamping: interval.wholeNanoseconds(rounded: .up))
        // The thread holds the watch only while it reads: releasing the watch ends the thread.
        let thread = Thread { [weak self, wakeUp] in
            while self?.turn(token: token, environment: environment, onChange: onChange) == true {
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(nanoseconds))
            }
        }
        thread.name = "jarvis-agent-watch"
        thread.start()
    }

    deinit { stop() }

    /// The running agents as last read.
    public var agents: [InspectorAgent] { state.withLock { $0.agents } }

    /// Ends the watch; `onChange` is not told again after the thread's current read.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { wakeUp.signal() }
    }

    /// Reads the discovery folder once, unless stopped; a new agent is asked for its `hello`,
    /// one gone is dropped. Returns whether to go on.
    private func turn(token: String?, environment: [String: String], onChange: @Sendable () -> Void) -> Bool {
        guard !state.withLock({ $0.stopped }) else { return false }
        guard let records = try? AgentDirectory.running(environment: environment) else { return true }
        let known = agents
        let fresh = records.map { record in
            known.first { $0.record == record } ?? InspectorAgent.asking(record, token: token)
        }
        let changed = state.withLock { state -> Bool in
            guard !state.stopped, state.agents != fresh else { return false }
            state.agents = fresh
            return true
        }
        if changed { onChange() }
        return true
    }
}
