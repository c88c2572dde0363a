import Dispatch
import Foundation
import JarvisCore

/// What the engine set up for one watched scanner, torn down when its last watcher leaves.
struct Activation: Sendable {
    /// How many subscriptions cover the scanner.
    var users = 0
    var timers: [DispatchSourceHandle] = []
    var signals: [(ChangeSignal, UInt64)] = []
    /// Watched folders, with the file names in each that are containers (nil: any file).
    var folders: [String: [FolderUse]] = [:]
    /// The scanner, to map a file event to containers without asking the hub each time.
    var scanner: (any PreferenceScanner)?

    enum FolderUse: Sendable {
        case file(name: String, container: String)
        case anyFile
    }
}

/// Setting up and tearing down the sources of change, and reading containers again.
extension ChangeEngine {
    /// How often a scanner whose folder cannot be watched is read again instead.
    static let fallbackInterval: Duration = .seconds(1)

    /// Counts one more user of a scanner, whose subscription reads `scope`; the first sets up
    /// the scanner's targets. Takes a baseline of the containers of `scope` seen for the first
    /// time, and reports what changed in the others while nobody watched. Runs on the
    /// scanner's lane; the file watcher is set up on `queue`, where it lives.
    func activate(_ id: String, scope: WatchScope) {
        let first = state.withLock { state -> Bool in
            state.active[id, default: Activation()].users += 1
            return state.active[id]?.users == 1
        }
        guard first else {
            refresh(id, containers: nil, adding: scope, onlyUncovered: true)
            return
        }
        guard let (scanner, _) = hub.watchedScanner(id) else { return }
        var activation = Activation(users: 1, scanner: scanner)
        for target in scanner.watchTargets() {
            switch target.source {
            case .file(let path, let container):
                let url = URL(fileURLWithPath: path)
                let folder = url.deletingLastPathComponent().path
                activation.folders[folder, default: []].append(.file(name: url.lastPathComponent, container: container))
            case .folder(let path):
                activation.folders[path, default: []].append(.anyFile)
            case .schedule(let interval):
                activation.timers.append(DispatchSourceHandle(makeTimer(for: id, every: interval)))
            case .signal(let signal):
                let token = signal.observe { [weak self] container in self?.hint(id, container: container) }
                activation.signals.append((signal, token))
            }
        }
        var unwatchable = false
        queue.sync {
            state.withLock { state in
                for folder in activation.folders.keys where !state.watchedFolders.contains(folder) {
                    do {
                        if state.watcher == nil {
                            state.watcher = try FileWatcher(queue: queue) { [weak self] folder, name in
                                self?.filesChanged(in: folder, name: name)
                            }
                        }
                        try state.watcher?.watch(folder: folder)
                        state.watchedFolders.insert(folder)
                    } catch {
                        unwatchable = true
                    }
                }
                if state.writeToken == nil {
                    state.writeToken = hub.writeObservers.add { [weak self] notice in self?.heard(notice) }
                }
            }
        }
        if unwatchable {
            activation.timers.append(DispatchSourceHandle(makeTimer(for: id, every: Self.fallbackInterval)))
        }
        // Everything here runs on the scanner's lane, so no other activation of it changed the
        // count meanwhile.
        state.withLock { state in
            activation.users = state.active[id]?.users ?? 1
            state.active[id] = activation
        }
        refresh(id, containers: nil, adding: scope)
    }

    /// Counts one user less; the last tears the scanner's sources down. Runs on `queue`, after
    /// the scanner's lane ended its earlier work.
    func deactivate(_ id: String) {
        state.withLock { state in
            guard var activation = state.active[id] else { return }
            activation.users -= 1
            guard activation.users <= 0 else {
                state.active[id] = activation
                return
            }
            state.active[id] = nil
            state.dirty[id] = nil
            state.written[id] = nil
            for timer in activation.timers { timer.source.cancel() }
            for (signal, token) in activation.signals { signal.stopObserving(token) }
            let stillUsed = Set(state.active.values.flatMap(\.folders.keys))
            for folder in activation.folders.keys
            where !stillUsed.contains(folder) && state.watchedFolders.contains(folder) {
                state.watcher?.unwatch(folder: folder)
                state.watchedFolders.remove(folder)
            }
            if state.active.isEmpty {
                state.watcher?.cancel()
                state.watcher = nil
                state.watchedFolders = []
                if let token = state.writeToken { hub.writeObservers.remove(token) }
                state.writeToken = nil
            }
        }
    }

    /// Marks containers dirty (nil: all of the scanner's) and schedules one flush after the
    /// debounce. Thread-safe; ignored for scanners nobody watches.
    func hint(_ id: String, container: String?) {
        let schedule = state.withLock { state -> Bool in
            guard state.active[id] != nil else { return false }
            state.markDirty(id, container: container)
            return state.scheduleFlush()
        }
        if schedule { scheduleFlush() }
    }

    /// How many of one container's own writes wait for a flush at most; past it they are
    /// dropped and the container is read whole instead, so a burst of writes holds bounded
    /// memory.
    static let writesHeldPerContainer = 1024

    /// Notes one of this agent's own writes, to apply at the next flush. Thread-safe; ignored
    /// for scanners nobody watches. Called under the hub's write lock of its container, so
    /// one container's notices arrive in the order written.
    func heard(_ notice: WriteNotice) {
        let (id, name) = (notice.address.scanner, notice.address.container)
        let schedule = state.withLock { state -> Bool in
            guard state.active[id] != nil else { return false }
            var held = state.written[id]?[name] ?? []
            if held.count < Self.writesHeldPerContainer {
                held.append(notice)
                state.written[id, default: [:]][name] = held
            } else {
                state.written[id]?[name] = nil
                state.markDirty(id, container: name)
            }
            return state.scheduleFlush()
        }
        if schedule { scheduleFlush() }
    }

    /// How long a container being written waits before it is looked at again.
    static let writeWait: DispatchTimeInterval = .milliseconds(20)

    private func scheduleFlush() {
        queue.asyncAfter(deadline: .now() + debounce) { [weak self] in self?.flush() }
    }

    /// Hands each scanner with something to read to its lane, unless a read is already queued
    /// there (one that will take what is marked when it starts): a scanner whose storage hangs
    /// holds at most one read running and one waiting, however long it hangs. `retry`: the
    /// flush scheduled for containers that were being written.
    private func flush(retry: Bool = false) {
        let scanners = state.withLock { state -> [String] in
            if retry { state.retryScheduled = false } else { state.flushScheduled = false }
            let waiting = Set(state.dirty.keys).union(state.written.keys).subtracting(state.queuedReads)
            state.queuedReads.formUnion(waiting)
            return waiting.sorted()
        }
        for id in scanners {
            lane(id).async { [self] in read(id) }
        }
    }

    /// What scanner `id` has to read, on its lane: the agent's own writes first, key by key
    /// (their event goes out before any read of a whole container, which then finds the
    /// container at the version they left), then the containers marked.
    private func read(_ id: String) {
        let (dirty, written, writing, again) = state.withLock { state in
            state.queuedReads.remove(id)
            let dirty = state.dirty.removeValue(forKey: id)
            let written = state.written.removeValue(forKey: id) ?? [:]
            // A file event of a write still under way (heard before the write could tell what
            // it did) waits for the write: read now, the whole container would be read for one
            // key. Asked under the lock the write's notice is added under, so a write not yet
            // told is still under way here. A write that fails tells nothing; then it is read.
            var writing: Set<String> = []
            if case .some(.some(let names)) = dirty {
                writing = names.filter { hub.isWriting(scanner: id, container: $0) }
                for name in writing { state.markDirty(id, container: name) }
            }
            let again = !writing.isEmpty && !state.retryScheduled
            if again { state.retryScheduled = true }
            return (dirty, written, writing, again)
        }
        if again {
            queue.asyncAfter(deadline: .now() + Self.writeWait) { [weak self] in self?.flush(retry: true) }
        }
        var unapplied: Set<String> = []
        for (name, notices) in written.sorted(by: { $0.key < $1.key })
        where !apply(id, container: name, notices: notices) {
            unapplied.insert(name)
        }
        switch dirty {
        case .some(.none): refresh(id, containers: nil)
        case .some(.some(let names)): refresh(id, containers: names.subtracting(writing).union(unapplied))
        case .none: if !unapplied.isEmpty { refresh(id, containers: unapplied) }
        }
    }

    /// Routes a file event to the scanners watching that folder (it only marks containers).
    /// Runs on `queue`.
    private func filesChanged(in folder: String, name: String?) {
        let users = state.withLock { state in
            state.active.compactMap { id, activation in
                activation.folders[folder].map { (id, $0, activation.scanner) }
            }
        }
        for (id, uses, scanner) in users {
            for use in uses {
                switch use {
                case .file(let file, let container):
                    if name == nil || name == file { hint(id, container: container) }
                case .anyFile:
                    guard let name else {
                        hint(id, container: nil)
                        continue
                    }
                    let path = folder + "/" + name
                    if let containers = scanner?.containers(changedAt: path) {
                        for container in containers { hint(id, container: container) }
                    } else {
                        hint(id, container: nil)
                    }
                }
            }
        }
    }

    private func makeTimer(for id: String, every interval: Duration) -> any DispatchSourceTimer {
        let nanoseconds = max(1_000_000, Int(clamping: interval.wholeNanoseconds(rounded: .up)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [weak self] in self?.hint(id, container: nil) }
        timer.resume()
        return timer
    }

    /// Reads the watched containers again (all of them, or those of `wanted` that are
    /// watched) and emits what changed since the last snapshot. A container seen for the
    /// first time only gets a baseline, which must not report every key as added. A container
    /// that cannot be read right now (a half-written file) keeps its last good snapshot, so a
    /// failed read never looks like every key was removed: it is reported unreadable, with its
    /// problem (again when the problem changes), and readable again once a read works, with
    /// what differs from the last good read. Runs on the scanner's lane.
    ///
    /// When every watched container is named exactly, each is looked up by name
    /// (``PreferenceScanner/container(named:)``) and read; otherwise the scanner lists its
    /// containers first.
    /// - Parameters:
    ///   - scope: containers of a subscription being added, read with those already watched.
    ///   - onlyUncovered: read only the containers that have no baseline yet.
    func refresh(
        _ id: String, containers wanted: Set<String>?, adding scope: WatchScope = .none, onlyUncovered: Bool = false
    ) {
        guard let (scanner, _) = hub.watchedScanner(id) else { return }
        let (watched, covered, known) = state.withLock { state in
            (
                self.scope(of: id, in: state).union(scope), state.coverage[id] ?? .none,
                Set(state.snapshots[id].map { Array($0.keys) } ?? [])
            )
        }
        // A write or file event in a container nobody watches reads nothing.
        if let wanted, !wanted.contains(where: watched.contains) { return }
        var listed: [String: ContainerInfo]?
        var names: Set<String>
        if let exact = watched.exactNames {
            names = wanted.map { $0.intersection(exact) } ?? exact
        } else {
            // The hub lists only what the configuration shows, and reads only visible keys:
            // visibility is the hub's rule, never re-applied here.
            guard let containers = hub.watchedContainers(id) else { return }
            var infos: [String: ContainerInfo] = [:]
            for container in containers where watched.contains(container.name) {
                infos[container.name] = container
            }
            listed = infos
            names = wanted?.filter(watched.contains) ?? known.filter(watched.contains).union(infos.keys)
        }
        names = names.filter { !(onlyUncovered && covered.contains($0)) }
        for name in names.sorted() {
            // Taken before the read, so a change during the read makes the next one differ.
            let version = hub.watchedVersion(id, container: name)
            if let version,
                state.withLock({ $0.snapshots[id]?[name]?.version == version && $0.problems[id]?[name] == nil })
            {
                // At the version last read: nothing can have changed.
                continue
            }
            var new: ContainerSnapshot?
            switch hub.watchedRead(id, container: name, listing: listed) {
            case .hidden: continue
            case .unreadable(let problem):
                state.withLock { state in
                    let known = state.problems[id]?[name]
                    state.problems[id, default: [:]][name] = problem
                    guard covered.contains(name), known != problem else { return }
                    let container = state.snapshots[id]?[name]?.info ?? ContainerInfo(name)
                    let event = state.backlog.append(
                        scanner: id, container: container, changes: [], state: .unreadable(problem: problem),
                        time: Date())
                    deliver(event, in: &state)
                }
                continue
            case .missing: new = nil
            case .read(let snapshot):
                new = snapshot
                new?.version = version
            }
            let heard = state.withLock { state -> (changes: [RawChange], container: ContainerInfo)? in
                let old = state.snapshots[id]?[name]
                state.snapshots[id, default: [:]][name] = new
                // A container deleted while unreadable is not readable again: its keys go.
                let recovered = state.problems[id]?.removeValue(forKey: name) != nil && new != nil
                guard covered.contains(name) else { return nil }
                let changes = ContainerSnapshot.changes(from: old, to: new)
                guard !changes.isEmpty || recovered else { return nil }
                let container = new?.info ?? old?.info ?? ContainerInfo(name)
                announce(changes, scanner: scanner, container: container, readable: recovered, in: &state)
                return (changes, container)
            }
            // Outside the engine's lock: the journal may write its file.
            if let heard { hub.journalOutside(heard.changes, scanner: id, container: heard.container) }
        }
        state.withLock { state in
            state.coverage[id] = (state.coverage[id] ?? .none).union(watched)
        }
    }
}

extension ChangeEngine {
    /// Appends one container's changes to the backlog as an event and delivers it (with
    /// `readable`, the news that the container can be read again). Called with the state locked.
    func announce(
        _ changes: [RawChange], scanner: any PreferenceScanner, container: ContainerInfo, readable: Bool,
        in state: inout State
    ) {
        let id = scanner.id
        let isSecret = scanner.info.isSecret
        let event = state.backlog.append(
            scanner: id, container: container, changes: changes, state: readable ? .readable : nil, time: Date(),
            keeping: { changes in isSecret ? seal(changes, scanner: id, container: container) : changes })
        deliver(event, in: &state)
    }

    /// A secret scanner's changes as the backlog keeps them: masked items in place of the
    /// entries, so no secret value (a rotated one least of all) stays in memory for replays,
    /// which never reveal.
    func seal(_ changes: [RawChange], scanner: String, container: ContainerInfo) -> [RawChange] {
        changes.map { change in
            let old = change.old.flatMap {
                hub.watchedItem($0, scanner: scanner, container: container, reveal: false)
            }
            let new = change.new.flatMap {
                hub.watchedItem($0, scanner: scanner, container: container, reveal: false)
            }
            let isHidden = (change.old != nil && old == nil) || (change.new != nil && new == nil)
            var kept = change
            kept.old = nil
            kept.new = nil
            kept.sealed = RawChange.Sealed(old: old, new: new, isHidden: isHidden)
            return kept
        }
    }
}
