#if canImport(SwiftUI)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// The panel's window onto an ``InspectorSession``: the model's state published on the main
    /// actor, and its actions as `async` calls that never block the main thread.
    ///
    /// It decides nothing: rows, drafts, refusals and change marks come from the model.
    @MainActor
    public final class PanelStore: ObservableObject {
        /// The model the panel draws.
        public let session: InspectorSession
        /// Everything the model knows, as of the last change.
        @Published public private(set) var state: InspectorState
        /// Whether the first load is still running.
        @Published public private(set) var isLoading = false
        /// Why the last load failed; nil when it did not.
        @Published public private(set) var loadError: String?
        /// A short message about the last action (saved, deleted, refused).
        @Published public var message: String?
        private var started = false
        /// The last grouping asked for, kept until the state or the question changes: a body
        /// that redraws does not sort 100,000 keys again.
        private var cachedSections: (version: Int, scanner: String?, query: String, sections: [InspectorSection])?
        private var cachedRows: (version: Int, level: InspectorLevel, query: String, rows: [InspectorRow])?
        private var version = 0

        /// A store over a session; call ``start()`` (the panel does) to load and go live.
        public init(session: InspectorSession) {
            self.session = session
            state = session.state
            session.onChange { [weak self] in
                Task { @MainActor in self?.refresh() }
            }
        }

        /// A store over a source: the in-process agent or a remote one.
        public convenience init(source: any InspectorSource) {
            self.init(session: InspectorSession(source: source))
        }

        private func refresh() {
            state = session.state
            version += 1
        }

        /// The model's sections for a segment and a search, computed once per change.
        public func sections(scanner: String?, query: String) -> [InspectorSection] {
            if let cached = cachedSections, cached.version == version, cached.scanner == scanner, cached.query == query
            {
                return cached.sections
            }
            let sections = state.sections(scanner: scanner, filter: InspectorFilter(query))
            cachedSections = (version, scanner, query, sections)
            return sections
        }

        /// The model's rows of a level for a search, computed once per change.
        public func rows(_ level: InspectorLevel, query: String) -> [InspectorRow] {
            if let cached = cachedRows, cached.version == version, cached.level == level, cached.query == query {
                return cached.rows
            }
            let rows = state.rows(level, filter: InspectorFilter(query))
            cachedRows = (version, level, query, rows)
            return rows
        }

        /// A snapshot of what the panel shows, made off the main thread, for sharing.
        public func snapshot(scanner: String?) async -> String {
            let session = self.session
            return await Task.detached(priority: .userInitiated) { session.snapshot(scanner: scanner).text }.value
        }

        /// Loads once and starts live updates; later calls do nothing.
        public func start() async {
            guard !started else { return }
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
                message = outcome.message(draft).text
                return nil
            } catch {
                return (error.message, draft)
            }
        }

        /// Deletes a key or nested member; returns the refusal, or nil when deleted.
        @discardableResult
        public func delete(_ target: InspectorRow.Target) async -> String? {
            do {
                let current = try await session.delete(target)
                refresh()
                let said = InspectorMessage.deleted(target, now: current)
                message = said.text
                return current == nil ? nil : said.text
            } catch {
                message = error.message
                return error.message
            }
        }

        /// Deletes exactly the keys of a previewed deletion (the rows a filter showed).
        public func delete(_ deletion: InspectorDeletion) async {
            do {
                message = try await session.delete(deletion).message.text
            } catch {
                message = error.message
            }
            refresh()
        }

        /// Resets a key to its default.
        public func reset(_ address: PreferenceAddress) async {
            do {
                message = InspectorMessage.reset(address, now: try await session.reset(address)).text
            } catch {
                message = error.message
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

        /// Drops change marks that have ended.
        public func expireHighlights() {
            session.expireHighlights()
            refresh()
        }
    }
#endif
