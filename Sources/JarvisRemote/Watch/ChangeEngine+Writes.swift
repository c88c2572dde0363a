import Foundation
import JarvisCore

/// The agent's own writes, applied to what the engine last read of their container.
extension ChangeEngine {
    /// Applies this agent's own writes to a container's snapshot by reading only the keys
    /// written, when their version steps lead on from the version the snapshot was read at
    /// (so the container then holds exactly the snapshot with those keys changed), and
    /// announces what changed. A write to one key of a 100,000-key suite then reads one key,
    /// not the suite. Runs on the scanner's lane.
    /// - Returns: false when the writes cannot be applied so (no version known, a step that
    ///   does not follow, an outside change between, a key that cannot be read): the caller
    ///   then reads the container whole, which finds every change.
    func apply(_ id: String, container name: String, notices: [WriteNotice]) -> Bool {
        guard let (scanner, _) = hub.watchedScanner(id) else { return true }
        let start = state.withLock { state -> ContainerVersion? in
            guard state.problems[id]?[name] == nil, state.coverage[id]?.contains(name) == true else { return nil }
            return state.snapshots[id]?[name]?.version
        }
        guard var version = start else { return false }
        // Each write's step must start where the last one ended; notices come in the order
        // written, so the next step is nearly always the first one left.
        var pending = notices
        var keys: Set<String> = []
        while !pending.isEmpty {
            guard let next = pending.firstIndex(where: { $0.step?.before == version }), let step = pending[next].step
            else { return false }
            keys.insert(pending[next].address.key)
            version = step.after
            pending.remove(at: next)
        }
        // Read now, a key may already hold a later outside change: it is announced with these,
        // and the next whole read, at another version, finds only the rest.
        guard let found = hub.watchedEntries(id, container: name, keys: keys) else { return false }
        let heard = state.withLock { state -> (changes: [RawChange], container: ContainerInfo)? in
            // Changed in place: a copy of the snapshot would copy every key of it.
            guard state.snapshots[id]?[name]?.version == start,
                let changes = state.snapshots[id]?[name]?.patch(keys, found: found),
                let info = state.snapshots[id]?[name]?.info
            else { return nil }
            state.snapshots[id]?[name]?.version = version
            guard !changes.isEmpty else { return nil }
            announce(changes, scanner: scanner, container: info, readable: false, in: &state)
            return (changes, info)
        }
        // Outside the engine's lock, as a whole read's changes are: the journal may write.
        if let heard { hub.journalOutside(heard.changes, scanner: id, container: heard.container) }
        return true
    }
}
