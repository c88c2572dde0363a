#if canImport(SwiftUI)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// The first screen: per-scanner segments, every key grouped by container, search.
    struct PanelHomeView: View {
        @ObservedObject var store: PanelStore
        @State private var segment = ""
        @State private var query = ""
        @State private var sections: [InspectorSection] = []
        @State private var selection: InspectorRow.Target?
        @State private var adding = false
        @State private var pendingDelete: InspectorRow?
        @State private var sharing: SharedSnapshot?
        var close: (() -> Void)?

        /// A snapshot written to a file, ready to share.
        struct SharedSnapshot: Identifiable {
            let id = UUID()
            let file: URL
            let share: SnapshotShare
        }

        /// What the rows depend on: recomputed (off the main thread) when any of it changes.
        private struct Question: Equatable {
            var version: Int
            var scanner: String?
            var query: String
        }

        private var scanner: String? { segment.isEmpty ? nil : segment }

        var body: some View {
            let state = store.state
            List(selection: PanelPlatform.selectsRows ? $selection : nil) {
                if let banner = state.banner {
                    ReadOnlyBanner(text: banner).listRowInsets(EdgeInsets())
                }
                if let problem = state.liveProblem {
                    Label(problem, systemImage: "antenna.radiowaves.left.and.right.slash")
                        .font(.footnote).foregroundStyle(.secondary)
                }
                Picker("Source", selection: $segment) {
                    ForEach(store.digest.segments) { segment in
                        Text("\(segment.title) (\(segment.count))").tag(segment.id)
                    }
                }
                .pickerStyle(.segmented)
                .accessibilityLabel("Source")
                if let error = store.loadError {
                    PanelEmptyView(
                        title: "Cannot read the agent", message: error, systemImage: "exclamationmark.triangle",
                        retry: { Task { await store.reload() } })
                } else if sections.isEmpty, !store.isLoading {
                    PanelEmptyView(
                        title: query.isEmpty ? "Nothing stored" : "No matches",
                        message: query.isEmpty
                            ? "This app has no visible preferences in this source yet."
                            : "Nothing matches \u{201C}\(query)\u{201D}. A * or ? searches as a pattern.",
                        systemImage: query.isEmpty ? "tray" : "magnifyingglass")
                }
                ForEach(sections) { section in
                    Section {
                        ForEach(section.rows) { row in
                            NavigationLink(value: PanelRoute(row)) { PanelRowView(row: row) }
                                .tag(row.target)
                                .rowActions(row, store: store) { pendingDelete = row }
                        }
                    } header: {
                        NavigationLink(value: PanelRoute.container(scanner: section.scanner, name: section.container)) {
                            HStack {
                                Text(section.container).lineLimit(1).truncationMode(.middle)
                                Spacer()
                                Text(section.scanner).foregroundStyle(.secondary)
                            }
                        }
                        .accessibilityLabel("\(section.container), \(section.scanner)")
                    } footer: {
                        if let problem = section.problem {
                            Label(problem, systemImage: "exclamationmark.triangle").foregroundStyle(.red)
                        }
                        if let warning = section.sizeWarning {
                            Label(warning, systemImage: "externaldrive.badge.exclamationmark").foregroundStyle(.orange)
                        }
                    }
                }
            }
            // Container names are case-sensitive identifiers: never upper-case them.
            .textCase(nil)
            .deleteKey { pendingDelete = selectedRow }
            .task(id: Question(version: store.version, scanner: scanner, query: query)) {
                let fresh = await store.sections(scanner: scanner, query: query)
                if !Task.isCancelled { sections = fresh }
            }
            .searchable(text: plainQuery($query), prompt: "Key or value; * and ? match patterns")
            .plainSearch()
            .refreshable { await store.reload() }
            .overlay { if store.isLoading && state.items.isEmpty { ProgressView("Loading") } }
            .navigationTitle(state.hello.agent)
            .toolbar { toolbar(state) }
            .sheet(isPresented: $adding) { AddKeySheet(store: store, scanner: scanner).panelSheetSize() }
            .sheet(item: $sharing) { shared in
                SnapshotShareView(agent: state.hello.agent, file: shared.file, share: shared.share) { sharing = nil }
            }
            .confirmationDialog(
                "Delete \(pendingDelete?.title ?? "")?", isPresented: deleteBinding, titleVisibility: .visible,
                presenting: pendingDelete
            ) { row in
                Button("Delete", role: .destructive) { Task { await store.delete(row.target) } }
            } message: { row in
                Text("\(row.subtitle ?? ""): \(row.preview)")
            }
        }

        private var selectedRow: InspectorRow? {
            guard let selection else { return nil }
            for section in sections {
                if let row = section.rows.first(where: { $0.target == selection }) { return row.isDeletable ? row : nil }
            }
            return nil
        }

        private var deleteBinding: Binding<Bool> {
            Binding(get: { pendingDelete != nil }, set: { if !$0 { pendingDelete = nil } })
        }

        /// Makes the snapshot and its file off the main thread.
        private func share() async {
            let share = await store.snapshot(scanner: scanner)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JarvisSnapshots", isDirectory: true)
            let written = await Task.detached { () -> Result<URL, JarvisError> in
                do throws(JarvisError) {
                    return .success(try share.write(into: folder))
                } catch {
                    return .failure(error)
                }
            }.value
            switch written {
            case .success(let file): sharing = SharedSnapshot(file: file, share: share)
            case .failure(let error): store.show(.refused("share", error))
            }
        }

        @ToolbarContentBuilder
        private func toolbar(_ state: InspectorState) -> some ToolbarContent {
            ToolbarItemGroup(placement: .primaryAction) {
                if PanelPlatform.needsReloadButton {
                    Button {
                        Task { await store.reload() }
                    } label: {
                        Label("Reload", systemImage: "arrow.clockwise")
                    }
                    .keyboardShortcut("r", modifiers: .command)
                    .disabled(store.isLoading)
                }
                if state.canEdit {
                    Button {
                        adding = true
                    } label: {
                        Label("Add key", systemImage: "plus")
                    }
                }
                Button {
                    Task { await share() }
                } label: {
                    Label("Share snapshot", systemImage: "square.and.arrow.up")
                }
            }
            if let close {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Done", action: close)
                }
            }
        }
    }

    /// A snapshot file and what it holds, with the system share sheet.
    struct SnapshotShareView: View {
        let agent: String
        let file: URL
        let share: SnapshotShare
        let done: () -> Void

        var body: some View {
            VStack(spacing: 16) {
                Text("Snapshot of \(agent)").font(.headline)
                Text(share.fileName).font(.callout.monospaced()).textSelection(.enabled)
                Text(share.summary).font(.callout).foregroundStyle(.secondary).multilineTextAlignment(.center)
                ShareLink(item: file, preview: SharePreview(share.fileName)) {
                    Label("Share", systemImage: "square.and.arrow.up")
                }
                Button("Done", action: done)
            }
            .padding()
            .panelSheetSize()
        }
    }
#endif
