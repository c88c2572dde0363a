import JarvisCore

/// The changes of several writes one connection named (``Wire/ChangeParams``), each with its
/// journal group, the newest ``capacity`` kept: a name sent again after that starts anew.
///
/// Thread-safe: one connection's requests may run on several work threads.
package final class SessionChanges: Sendable {
    /// How many names one connection keeps.
    package static let capacity = 16

    private struct State {
        var groups: [String: JournalGroup] = [:]
        /// Names, oldest first.
        var order: [String] = []
    }

    private let state = Locked(State())

    package init() {}

    /// The group of the change `name`, made on first use.
    package func group(named name: String) -> JournalGroup {
        state.withLock { state in
            if let group = state.groups[name] { return group }
            let group = JournalGroup(name: name)
            state.groups[name] = group
            state.order.append(name)
            if state.order.count > Self.capacity { state.groups[state.order.removeFirst()] = nil }
            return group
        }
    }

    /// The group of the change `name`; nil when this connection sent no write in it (or it
    /// was forgotten since).
    package func existing(named name: String) -> JournalGroup? {
        state.withLock { $0.groups[name] }
    }
}
