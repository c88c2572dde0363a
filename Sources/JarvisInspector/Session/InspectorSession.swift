import Foundation
import JarvisCore
import JarvisRemote

/// The inspector model every interactive face sits on: it loads what an agent shows, keeps it
/// current from `watch`, and turns the user's actions into the agent's requests.
///
/// Thread-safe. The synchronous methods block on the source's I/O, for a face with a thread of
/// its own (the terminal inspector); the `async` methods of the same names run them on the
/// session's background queue, for a UI on the main actor. ``state`` is a value: read it
/// whenever ``onChange(_:)`` fires.
///
/// Every write sends the revision it read; a conflict stores and returns the value as it is
/// now instead of overwriting it.
public final class InspectorSession: Sendable {
    /// What the session reads from and writes to.
    public let source: any InspectorSource
    let queue = DispatchQueue(label: "jarvis.inspector.session", qos: .userInitiated)
    private let box: Locked<Box>

    private struct Box: Sendable {
        var state: InspectorState
        var feed: (any InspectorFeed)?
        /// The ``onChange(_:)`` handler, and every ``observe(_:)`` handler by its number.
        var observer: (@Sendable () -> Void)?
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserver = 0
        var loaded = false
        /// While a load reads its pages: the changes that arrived meanwhile, applied again
        /// over what the pages said (a page read before a change would revert it).
        var journal: [ChangeNotification]?

        var handlers: [@Sendable () -> Void] { (observer.map { [$0] } ?? []) + observers.values }
    }

    /// The outcome of a save.
    public enum SaveOutcome: Sendable, Hashable {
        /// Stored; the item as the agent stored it (its ``PreferenceItem/notes`` say what the
        /// storage changed, such as a rounded date).
        case saved(PreferenceItem)
        /// Someone else changed the key since it was read: nothing was written, and this is
        /// the key as it is now (nil: it was removed).
        case conflict(PreferenceItem?)
    }

    /// A session on `source`; nothing is read until ``load()``.
    public init(source: any InspectorSource) {
        self.source = source
        box = Locked(Box(state: InspectorState(hello: source.hello)))
    }

    /// Everything known now.
    public var state: InspectorState { box.withLock { $0.state } }

    /// Sets the face's own handler, told after every change of ``state`` (on the thread that
    /// changed it: a UI hops to its own actor); nil removes it. Other observers added with
    /// ``observe(_:)`` are told too and are not replaced.
    public func onChange(_ handler: (@Sendable () -> Void)?) {
        box.withLock { $0.observer = handler }
    }

    /// Adds a handler told after every change of ``state``, beside any others, until the
    /// returned observation is cancelled or released.
    public func observe(_ handler: @escaping @Sendable () -> Void) -> InspectorObservation {
        let number = box.withLock { box -> Int in
            box.nextObserver += 1
            box.observers[box.nextObserver] = handler
            return box.nextObserver
        }
        return InspectorObservation { [weak self] in self?.box.withLock { $0.observers[number] = nil } }
    }

    func update<T>(_ body: (inout InspectorState) throws(JarvisError) -> T) throws(JarvisError) -> T {
        let (result, handlers) = try box.withLock {
            (box: inout Box) throws(JarvisError) -> (T, [@Sendable () -> Void]) in
            (try body(&box.state), box.handlers)
        }
        for handler in handlers { handler() }
        return result
    }

    // MARK: - Reading

    /// Reads the agent's scanners, containers and every visible item (page by page), scanner by
    /// scanner: one whose storage does not answer in time (or cannot work here) is a problem of
    /// that scanner, and the others load.
    /// - Throws: ``JarvisError`` when the agent cannot be reached or refuses.
    public func load() throws(JarvisError) {
        let scanners = try source.call(Wire.ScannersParams(), expecting: Wire.ScannersResult.self).scanners
        box.withLock { $0.journal = $0.journal ?? [] }
        var containers: [Wire.Container] = []
        var items: [PreferenceItem] = []
        var problems: [Wire.Container] = []
        var hidden = 0
        // Each scanner on its own: one whose storage does not answer (a hung keyring) becomes a
        // problem of its own after one timeout, and every other scanner loads (asked all at
        // once, the containers failed whole, and a listing stopped at the stuck scanner).
        var stuck: [JarvisError] = []
        do throws(JarvisError) {
            for scanner in scanners {
                do throws(JarvisError) {
                    containers += try source.call(
                        Wire.ContainersParams(scanner: scanner.id), expecting: Wire.ContainersResult.self
                    ).containers
                    var request = Wire.ListParams()
                    request.scanner = scanner.id
                    request.limit = Wire.maxPageSize
                    repeat {
                        let page = try source.call(request, expecting: Wire.ListPage.self)
                        items += page.items
                        problems += page.problems
                        hidden += page.hiddenSystemContainers
                        request.cursor = page.nextCursor
                    } while request.cursor != nil
                } catch where error.code == .notFound {
                    continue  // Not served (disabled): nothing to show.
                } catch where error.code == .unavailable {
                    stuck.append(error)
                    problems.append(Wire.Container(scanner: scanner.id, name: "", writable: false, problem: error.message))
                }
            }
            // Every scanner unavailable: the agent is, rather than its storage.
            if let first = stuck.first, stuck.count == scanners.count { throw first }
        } catch {
            box.withLock { $0.journal = nil }
            throw error
        }
        let handlers = box.withLock { box -> [@Sendable () -> Void] in
            box.state.replace(
                scanners: scanners, containers: containers, items: items, problems: problems,
                hiddenSystemContainers: hidden)
            // What changed while the pages were read is newer than the page that held it.
            for notification in box.journal ?? [] { box.state.apply(notification, now: .now, marking: false) }
            box.journal = nil
            box.loaded = true
            return box.handlers
        }
        for handler in handlers { handler() }
    }

    /// Subscribes to every visible change; changed keys are marked for ``InspectorState/highlight``.
    /// Subscribe before ``load()`` so nothing falls between the two. An agent without `watch`
    /// or a refusal is recorded in ``InspectorState/liveProblem``, not thrown.
    public func startLive() {
        guard box.withLock({ $0.feed == nil }) else { return }
        do {
            let feed = try source.watch(Wire.WatchParams()) { [weak self] event in self?.take(event) }
            box.withLock { $0.feed = feed }
            _ = try? update { (state: inout InspectorState) throws(JarvisError) in
                state.isLive = true
                state.liveProblem = nil
            }
        } catch {
            let message =
                error.code == .methodNotFound
                ? "this agent has no live updates (no `watch` method); reload to see changes"
                : "no live updates: \(error.message)"
            _ = try? update { (state: inout InspectorState) throws(JarvisError) in
                state.isLive = false
                state.liveProblem = message
            }
        }
    }

    private func take(_ event: InspectorFeedEvent) {
        let handlers = box.withLock { box -> [@Sendable () -> Void] in
            switch event {
            case .changed(let notification):
                box.state.apply(notification, now: .now)
                box.journal?.append(notification)
            case .ended(let message):
                box.state.isGone = box.state.isLive
                box.state.isLive = false
                box.state.liveProblem = message
                box.feed = nil
            }
            return box.handlers
        }
        for handler in handlers { handler() }
    }

    /// Drops change marks that have ended (a face calls it when it redraws).
    public func expireHighlights() {
        box.withLock { $0.state.expireHighlights(now: .now) }
    }

    /// Asks the agent for a secret's value (the agent must allow it, and audits it).
    /// - Throws: ``JarvisError`` `.unauthorized` when the agent does not allow revealing.
    @discardableResult
    public func reveal(_ address: PreferenceAddress) throws(JarvisError) -> PreferenceItem {
        let item = try source.call(Wire.GetParams(Wire.Place(address), reveal: true), expecting: Wire.ItemResult.self)
            .item
        try update { (state: inout InspectorState) throws(JarvisError) in state.reveal(item) }
        return item
    }

    /// Stops live updates and closes the source. Releasing the session does the same: a
    /// face that forgets to close leaves no subscription, thread or socket behind.
    public func close() {
        let feed = box.withLock { box -> (any InspectorFeed)? in
            defer { box.feed = nil }
            return box.feed
        }
        feed?.stop()
        source.close()
    }

    deinit {
        box.withLock { $0.feed }?.stop()
        source.close()
    }
}
