#if canImport(SwiftUI)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// The panel's window onto an ``InspectorSession``: the model's state published on the main
    /// actor, and its actions as `async` calls that never block the main thread.
    ///
    /// It decides nothing: rows, drafts, refusals and change marks come from the model. A burst
    /// of changes publishes at most one new state per 100 ms (``RefreshThrottle``), and rows are
    /// computed off the main thread (``sections(scanner:query:)``, ``rows(_:query:)``).
    @MainActor
    public final class PanelStore: ObservableObject {
        /// The model the panel draws.
        public let session: InspectorSession
        /// Everything the model knows, as of the last refresh.
        @Published public private(set) var state: InspectorState
        /// Counts refreshes: a view recomputes its rows when it changes.
        @Published public private(set) var version = 0
        /// Segments and add choices of ``state``, made off the main thread once per refresh:
        /// views look things up in it instead of walking every key in `body`.
        @Published public private(set) var digest = PanelDigest.empty
        /// Whether a load is running.
        @Published public private(set) var isLoading = false
        /// Why the last load failed; nil when it did not.
        @Published public private(set) var loadError: String?
        /// A short message about the last action (saved, deleted, refused); it goes away after
        /// its ``PanelMessage/lifetime``.
        @Published public private(set) var message: PanelMessage?
        /// Whether an editor holds text that differs from what it started with: a swipe down
        /// then asks before discarding it (``ValueDraft/isEdited(_:locale:)`` decides).
        @Published public private(set) var hasUnsavedEdit = false
        /// The last segment's search, for the version it was made at.
        private var search: (version: Int, scanner: String?, search: PanelSearch)?
        /// The last level's search, for the version it was made at.
        private var levelSearch: (version: Int, level: InspectorLevel, search: PanelSearch)?
        private var started = false
        private var closed = false
        private let ownsSession: Bool
        private var throttle = RefreshThrottle()
        private var highlightTask: Task<Void, Never>?
        private var messageCount = 0

        /// A store over a session you own: ``close()`` leaves it open. Call ``start()`` (the
        /// panel does) to load and go live.
        public convenience init(session: InspectorSession) {
            self.init(session: session, owns: false)
        }

        /// A store over a source: the in-process agent or a remote one. The store owns the
        /// session it makes: ``close()`` closes it, as releasing the store does.
        public convenience init(source: any InspectorSource) {
            self.init(session: InspectorSession(source: source), owns: true)
        }

        private init(session: InspectorSession, owns: Bool) {
            self.session = session
            ownsSession = owns
            state = session.state
            session.onChange { [weak self] in
                Task { @MainActor in self?.changed() }
            }
        }

        /// A change arrived: refresh now, or at the throttle's next slot.
        private func changed() {
            guard !closed, let due = throttle.changed(now: .now) else { return }
            let wait = due - .now
            guard wait > .zero else { return refresh() }
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: wait)
                self?.refresh()
            }
        }

        private func refresh() {
            throttle.refreshed(now: .now)
            state = session.state
            version &+= 1
            scheduleHighlightEnd()
            redigest()
        }

        /// Makes the digest of the state just published off the main thread; a newer refresh
        /// wins over an older one still running.
        private func redigest() {
            let state = self.state
            let made = version
            Task { @MainActor [weak self] in
                let digest = await Task.detached(priority: .userInitiated) { PanelDigest(state) }.value
                guard let self, self.version == made else { return }
                self.digest = digest
            }
        }

        /// The detail of a key or member with its value shortened to
        /// ``PanelDigest/previewLimit`` characters, made off the main thread.
        public func detail(_ address: PreferenceAddress, _ pointer: JSONPointer) async -> InspectorDetail? {
            let state = self.state
            return await Task.detached(priority: .userInitiated) {
                state.detail(address, pointer, limit: PanelDigest.previewLimit)
            }.value
        }

        /// Redraws once when the next change mark ends (``InspectorState/nextHighlightEnd(now:)``),
        /// never on a fixed tick.
        private func scheduleHighlightEnd() {
            highlightTask?.cancel()
            guard let end = state.nextHighlightEnd(now: .now) else { return }
            highlightTask = Task { @MainActor [weak self] in
                try? await Task.sleep(for: end - .now)
                guard !Task.isCancelled, let self, !self.closed else { return }
                self.session.expireHighlights()
                self.refresh()
            }
        }

        /// The model's sections for a segment and a search, computed off the main thread from
        /// the state as of this call. The segment's rows are built once per change
        /// (``PanelSearch``); a keystroke then tests only what the shorter search kept.
        public func sections(scanner: String?, query: String) async -> [InspectorSection] {
            let state = self.state
            let made = version
            let cached = search.flatMap { $0.version == made && $0.scanner == scanner ? $0.search : nil }
            let (sections, search) = await Task.detached(priority: .userInitiated) {
                var search = cached ?? PanelSearch(state, scanner: scanner)
                return (search.sections(InspectorFilter(query)), search)
            }.value
            if version == made { self.search = (made, scanner, search) }
            return sections
        }

        /// The model's rows of a level for a search, computed off the main thread; the level's
        /// rows are built once per change and narrowed keystroke by keystroke (``PanelSearch``).
        public func rows(_ level: InspectorLevel, query: String) async -> [InspectorRow] {
            let state = self.state
            let made = version
            let cached = levelSearch.flatMap { $0.version == made && $0.level == level ? $0.search : nil }
            let (rows, search) = await Task.detached(priority: .userInitiated) {
                var search = cached ?? PanelSearch(state, level: level)
                return (search.rows(InspectorFilter(query)), search)
            }.value
            if version == made { levelSearch = (made, level, search) }
            return rows
        }

        /// A snapshot of what the panel shows, made off the main thread, for sharing as a file.
        public func snapshot(scanner: String?) async -> SnapshotShare {
            let session = self.session
            return await Task.detached(priority: .userInitiated) { session.snapshotShare(scanner: scanner) }.value
        }

        /// Shows a message; it replaces the one shown.
        public func show(_ said: InspectorMessage) {
            messageCount &+= 1
            message = PanelMessage(said, id: messageCount)
        }

        /// Shows what a change made here says, offering Undo beside it (the model's rule).
        private func showChange(_ said: InspectorMessage) {
            show(said.offeringUndo(canEdit: session.state.canEdit))
        }

        /// Takes back the newest change (or, with `redo`, puts back what the last undo took),
        /// by the agent's journal; the message says what happened and offers the way back.
        public func undo(redo: Bool = false) async {
            do {
                show(try await session.undo(redo: redo))
            } catch {
                show(InspectorMessage.refused(redo ? "redo" : "undo", error))
            }
            refresh()
        }

        /// A key's timeline from the agent's journal, newest first, made off the main thread;
        /// the agent's refusal as text when it cannot be read (an agent without a journal).
        public func timeline(_ address: PreferenceAddress) async -> Result<[InspectorTimelineEntry], JarvisError> {
            do {
                return .success(try await session.timeline(of: address))
            } catch {
                return .failure(error)
            }
        }

        /// Takes back one change of a timeline by the agent's guarded write, and says what
        /// happened (a conflict shows both values; nothing is written then).
        public func revert(_ entry: InspectorTimelineEntry) async {
            do {
                show(try await session.revert(entry))
            } catch {
                show(InspectorMessage.refused(entry.revertLabel.lowercased(), error))
            }
            refresh()
        }

        /// An editor reports whether its text is edited (false when it closes).
        public func editing(_ edited: Bool) {
            if hasUnsavedEdit != edited { hasUnsavedEdit = edited }
        }

        /// Hides `shown` if it is still the message shown (its time ran out, or it was tapped).
        public func dismiss(_ shown: PanelMessage) {
            if message == shown { message = nil }
        }

        /// Stops live updates and, when the store made its session, closes it (its feed, its
        /// socket). The panel calls it when dismissed. Idempotent.
        public func close() {
            guard !closed else { return }
            closed = true
            highlightTask?.cancel()
            session.onChange(nil)
            guard ownsSession else { return }
            let session = self.session
            Task.detached { await session.close() }
        }

        /// Loads once and starts live updates; later calls do nothing.
        public func start() async {
            guard !started, !closed else { return }
            started = true
            await session.startLive()
            await reload()
        }

        /// Reads everything again.
        public func reload() async {
            isLoading = true
            defer { isLoading = false }
            do {
                try await session.load()
                loadError = nil
            } catch {
                loadError = error.message
            }
            refresh()
        }

        /// Saves an edit; nil when saved, else what to show at the field and the draft to keep
        /// editing (after a conflict it is at the revision now: saving again overwrites).
        /// - Parameter confirmed: the user answered yes to the draft's
        ///   ``ValueDraft/confirmation`` (replacing a secret); without it such a draft is refused.
        public func save(_ draft: ValueDraft, text: String, confirmed: Bool = false) async -> (
            problem: String, draft: ValueDraft
        )? {
            do {
                let outcome = try await session.save(draft, text: text, confirmed: confirmed)
                refresh()
                if case .conflict = outcome { return (outcome.message(draft).text, session.redraft(draft)) }
                showChange(outcome.message(draft))
                return nil
            } catch {
                return (error.message, draft)
            }
        }

        /// Makes a row's quick edit (``InspectorQuickEdit``); nil when saved or refused (the
        /// message says which), else, after a conflict, what to show at the field and the draft
        /// to keep editing with its text, as after any conflicted save.
        public func quickEdit(_ target: InspectorRow.Target, _ kind: InspectorQuickEdit) async -> (
            problem: String, draft: ValueDraft, text: String
        )? {
            do {
                let result = try await session.quickEdit(target, kind)
                refresh()
                if let kept = result.kept { return (result.outcome.message(result.draft).text, kept, result.text) }
                showChange(result.outcome.message(result.draft))
                return nil
            } catch {
                show(InspectorMessage.refused("set", error))
                return nil
            }
        }

        /// Deletes a key or nested member; returns the refusal, or nil when deleted.
        @discardableResult
        public func delete(_ target: InspectorRow.Target) async -> String? {
            do {
                let current = try await session.delete(target)
                refresh()
                let said = InspectorMessage.deleted(target, now: current)
                showChange(said)
                return current == nil ? nil : said.text
            } catch {
                show(InspectorMessage.refused("delete", error))
                return error.message
            }
        }

        /// Deletes exactly the keys of a previewed deletion (the rows a filter showed).
        public func delete(_ deletion: InspectorDeletion) async {
            do {
                showChange(try await session.delete(deletion).message)
            } catch {
                show(InspectorMessage.refused("delete", error))
            }
            refresh()
        }

        /// Resets a key to its default.
        public func reset(_ address: PreferenceAddress) async {
            do {
                showChange(InspectorMessage.reset(address, now: try await session.reset(address)))
            } catch {
                show(InspectorMessage.refused("reset", error))
            }
            refresh()
        }

        /// Reveals a secret; returns the refusal, or nil.
        public func reveal(_ address: PreferenceAddress) async -> String? {
            do {
                try await session.reveal(address)
                refresh()
                return nil
            } catch {
                return error.message
            }
        }
    }
#endif
