import Dispatch
import Foundation
import JarvisCore
import JarvisTransport

/// Turns changes to the host's storage into `changed` notifications, while and only while
/// somebody watches.
///
/// The first subscription covering a scanner sets up that scanner's ``WatchTarget``s (folder
/// watches, a schedule, a signal) and takes a silent baseline; the last one to end tears them
/// down, so an agent nobody watches has no timer, no watch and uses no CPU. Only the
/// containers some subscription's filter matches are read and kept (``WatchScope``), so
/// watching a small suite beside a huge one costs the small one. A source firing marks
/// containers dirty; after a short debounce the engine reads only those of them that are
/// watched, diffs them against the last snapshot and emits one event per container that
/// really changed, stamped with the agent's next sequence number and kept in a bounded
/// backlog for clients that resume.
///
/// Each scanner's I/O happens on a serial queue of its own (its lane), so a scanner whose
/// storage hangs (a desktop keyring that never answers) holds up its own changes alone: the
/// others' are still read and sent, and a subscription is answered after at most
/// ``baselineWait`` whatever its scanners do. File events, timers and the debounce run on the
/// engine's own queue, which never waits on storage. `subscribe` and `unsubscribe` may be
/// called from any thread.
package final class ChangeEngine: Sendable {
    /// Where a subscription's lines go; must not block (``LineConnection/send(_:)``).
    package typealias Sink = @Sendable ([UInt8]) -> Void

    /// What one subscription wants to see.
    package struct Filter: Sendable {
        package var scanner: String?
        package var container: GlobPattern?
        package var key: GlobPattern?
        package var reveal: Bool
        /// Told of every secret item sent in clear, once per delivery, so it can be audited.
        package var revealed: (@Sendable ([PreferenceItem]) -> Void)?

        package init(
            scanner: String? = nil, container: GlobPattern? = nil, key: GlobPattern? = nil, reveal: Bool = false,
            revealed: (@Sendable ([PreferenceItem]) -> Void)? = nil
        ) {
            self.scanner = scanner
            self.container = container
            self.key = key
            self.reveal = reveal
            self.revealed = revealed
        }
    }

    /// The answer to a subscription: its id, the latest sequence number, and whether a
    /// requested resume worked (nil when none was asked for).
    package struct Subscribed: Sendable, Hashable {
        package var id: String
        package var sequence: Int64
        package var resumed: Bool?
    }

    struct Subscription: Sendable {
        var filter: Filter
        var scanners: Set<String>
        var sink: Sink
        /// Lines held back until ``release(_:)``, so the reply to `watch` goes out first.
        var held: [[UInt8]]?
    }

    struct State: Sendable {
        var subscriptions: [String: Subscription] = [:]
        var nextID: UInt64 = 0
        var active: [String: Activation] = [:]
        var snapshots: [String: [String: ContainerSnapshot]] = [:]
        /// Per scanner, the containers that could not be read last time, with the problem:
        /// their snapshot is the last good read.
        var problems: [String: [String: String]] = [:]
        /// Per scanner, the containers that have a baseline in `snapshots` (or were found
        /// missing when it was taken): only their changes are reported.
        var coverage: [String: WatchScope] = [:]
        var backlog: ChangeBacklog
        /// Containers to read again at the next flush, per scanner; nil means all of them.
        var dirty: [String: Set<String>?] = [:]
        /// This agent's own writes since the last flush, per scanner and container, in the
        /// order written: applied to the snapshot key by key when their version steps lead on
        /// from it (``ChangeEngine/apply(_:container:notices:)``).
        var written: [String: [String: [WriteNotice]]] = [:]
        var flushScheduled = false
        /// Whether a flush is scheduled for containers left because they were being written.
        var retryScheduled = false
        /// The scanners whose lane has a read queued that has not started yet.
        var queuedReads: Set<String> = []
        /// Touched only on `queue`.
        var watcher: FileWatcher?
        var watchedFolders: Set<String> = []
        var writeToken: UInt64?

        /// Marks a container to read again (nil: all of the scanner's).
        mutating func markDirty(_ id: String, container: String?) {
            guard let container else {
                dirty[id] = .some(nil)
                return
            }
            switch dirty[id] {
            case .none: dirty[id] = .some([container])
            case .some(.some(var names)):
                names.insert(container)
                dirty[id] = .some(names)
            case .some(.none): break
            }
        }

        /// Whether the caller must schedule a flush: true once until the flush runs.
        mutating func scheduleFlush() -> Bool {
            guard !flushScheduled else { return false }
            flushScheduled = true
            return true
        }
    }

    let hub: JarvisHub
    /// File events, timers, the debounce and the file watcher; never storage.
    let queue = DispatchQueue(label: "jarvis.watch")
    /// Each scanner's serial queue, where its containers are read (see ``lane(_:)``).
    private let lanes = Locked<[String: DispatchQueue]>([:])
    /// How long a subscription waits for its scanners' first reads (its baseline) before it is
    /// answered: a scanner slower than that starts reporting once its read ends.
    let baselineWait: DispatchTimeInterval
    let debounce: DispatchTimeInterval
    let state: Locked<State>

    /// Creates an idle engine: nothing is watched until ``subscribe(_:since:sink:)``.
    /// - Parameters:
    ///   - backlog: how many events are kept for clients that resume.
    ///   - debounce: how long after the first sign of a change the containers are read, so a
    ///     burst of writes makes one event.
    ///   - baselineWait: how long a subscription waits for its scanners' first reads; the agent
    ///     keeps it well inside its request timeout, so a hung scanner never times a watch out.
    package init(
        hub: JarvisHub, backlog: Int = 1024, debounce: Duration = .milliseconds(2), baselineWait: Duration = .seconds(5)
    ) {
        self.hub = hub
        self.debounce = .nanoseconds(Int(clamping: debounce.wholeNanoseconds(rounded: .up)))
        self.baselineWait = .nanoseconds(Int(clamping: baselineWait.wholeNanoseconds(rounded: .up)))
        state = Locked(State(backlog: ChangeBacklog(capacity: backlog)))
    }

    /// How many subscriptions are live, across every client (for leak tests).
    package var subscriptionCount: Int { state.withLock { $0.subscriptions.count } }

    /// Starts a subscription. Its lines are held until ``release(_:)``.
    /// - Parameter since: resume after this sequence number: the missed events are queued first.
    package func subscribe(_ filter: Filter, since: Int64?, sink: @escaping Sink) -> Subscribed {
        let scanners = filter.scanner.map { [$0] } ?? hub.enabledScannerIDs()
        // Every scanner's baseline at once, each on its lane; one that hangs is not waited for
        // past the bound.
        let baselines = DispatchGroup()
        for scanner in scanners {
            lane(scanner).async(group: baselines) { [self] in activate(scanner, scope: WatchScope(filter)) }
        }
        _ = baselines.wait(timeout: .now() + baselineWait)
        return state.withLock { state in
            state.nextID += 1
            let id = "w\(state.nextID)"
            var subscription = Subscription(filter: filter, scanners: Set(scanners), sink: sink, held: [])
            var resumed: Bool?
            if let since {
                if let missed = state.backlog.events(after: since) {
                    resumed = true
                    // A replay never reveals: the backlog's secret values may be rotated
                    // ones, and nobody consented to see those again.
                    var replay = filter
                    replay.reveal = false
                    subscription.held = missed.compactMap { line(for: $0, subscription: id, filter: replay) }
                } else {
                    resumed = false
                }
            }
            state.subscriptions[id] = subscription
            return Subscribed(id: id, sequence: state.backlog.latest, resumed: resumed)
        }
    }

    /// Sends what was held for a subscription and lets later events through directly.
    package func release(_ id: String) {
        state.withLock { state in
            guard var subscription = state.subscriptions[id], let held = subscription.held else { return }
            for line in held { subscription.sink(line) }
            subscription.held = nil
            state.subscriptions[id] = subscription
        }
    }

    /// Ends a subscription; nothing more is sent for it once this returns.
    /// - Returns: false when there was no such subscription.
    @discardableResult
    package func unsubscribe(_ id: String) -> Bool {
        guard let removed = state.withLock({ $0.subscriptions.removeValue(forKey: id) }) else { return false }
        // After the scanner's activations on its lane; the sources are torn down on `queue`.
        for scanner in removed.scanners {
            lane(scanner).async { [self] in queue.sync { deactivate(scanner) } }
        }
        return true
    }

    /// Whether any scanner is being watched now (for tests and diagnostics). Never waits on a
    /// lane: a scanner whose storage hangs would hold the answer for ever. An unsubscribe's
    /// teardown is queued behind its scanner's lane, so a caller polls until it shows.
    package var isWatching: Bool {
        state.withLock { !$0.active.isEmpty }
    }

    /// The serial queue where scanner `id`'s storage is read, made on first use.
    func lane(_ id: String) -> DispatchQueue {
        lanes.withLock { lanes in
            if let lane = lanes[id] { return lane }
            let lane = DispatchQueue(label: "jarvis.watch." + id)
            lanes[id] = lane
            return lane
        }
    }

    /// What the backlog holds, in bytes of keys and values (bounded by its byte budget).
    package var backlogBytes: Int {
        state.withLock { $0.backlog.heldBytes }
    }

    /// The backlog's events after `since`, as a resuming client would get them replayed.
    package func backlog(after since: Int64) -> [ChangeEvent]? {
        state.withLock { $0.backlog.events(after: since) }
    }

    /// The latest sequence number.
    package var latestSequence: Int64 {
        state.withLock { $0.backlog.latest }
    }

    /// The containers of a scanner that its subscriptions watch.
    func scope(of scanner: String, in state: State) -> WatchScope {
        state.subscriptions.values.filter { $0.scanners.contains(scanner) }
            .reduce(WatchScope.none) { $0.union(WatchScope($1.filter)) }
    }

    /// Sends an event to every subscription that wants it. Called with the state locked, so
    /// events go out in sequence order and never after `unsubscribe` returned.
    func deliver(_ event: ChangeEvent, in state: inout State) {
        for (id, subscription) in state.subscriptions where subscription.scanners.contains(event.scanner) {
            guard let line = line(for: event, subscription: id, filter: subscription.filter) else { continue }
            if subscription.held != nil {
                state.subscriptions[id]?.held?.append(line)
            } else {
                subscription.sink(line)
            }
        }
    }

    /// The `changed` notification of an event for one subscription, built with the hub so that
    /// masking and hiding apply as they do to `list`; nil when nothing in it is for this filter.
    func line(for event: ChangeEvent, subscription: String, filter: Filter) -> [UInt8]? {
        guard filter.scanner.map({ $0 == event.scanner }) ?? true,
            filter.container?.matches(event.container.name) ?? true
        else { return nil }
        var changes: [ChangeNotification.Change] = []
        for change in event.changes where filter.key?.matches(change.key) ?? true {
            var wire = ChangeNotification.Change(
                kind: ChangeNotification.Change.Kind(change.kind),
                address: PreferenceAddress(scanner: event.scanner, container: event.container.name, key: change.key),
                item: nil, old: nil)
            if let sealed = change.sealed {
                // Kept masked by the backlog: shown as sealed, never revealed.
                guard !sealed.isHidden, sealed.new?.depthProblem == nil, sealed.old?.depthProblem == nil
                else { continue }
                wire.item = sealed.new
                wire.old = sealed.old
            }
            if let new = change.new {
                guard
                    let item = hub.watchedItem(
                        new, scanner: event.scanner, container: event.container, reveal: filter.reveal)
                else { continue }
                wire.item = item
            }
            if let old = change.old {
                guard
                    let item = hub.watchedItem(
                        old, scanner: event.scanner, container: event.container, reveal: filter.reveal)
                else { continue }
                wire.old = item
            }
            changes.append(wire)
        }
        // A container that became unreadable, or readable again, is news even when no key
        // this filter matches changed.
        let container = ChangeNotification.ContainerChange(
            event.state, scanner: event.scanner, name: event.container.name
        ).flatMap { hub.showsWatched(event.scanner, container: event.container.name) ? $0 : nil }
        guard !changes.isEmpty || container != nil else { return nil }
        if filter.reveal, let revealed = filter.revealed,
            hub.scanners().first(where: { $0.id == event.scanner })?.info.isSecret == true
        {
            // Exactly what this line carries in clear, old values included.
            let sent = changes.flatMap { [$0.item, $0.old].compactMap { $0 } }.filter { $0.value != nil }
            if !sent.isEmpty { revealed(sent) }
        }
        let notification = ChangeNotification(
            subscription: subscription, sequence: event.sequence, time: event.time, changes: changes,
            container: container)
        return RPCResponse.notification(method: ChangeNotification.method, params: notification.params)
    }
}
