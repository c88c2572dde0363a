#if canImport(SwiftUI)
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// The first screen: per-scanner segments, every key grouped by container, search.
    struct PanelHomeView: View {
        @ObservedObject var store: PanelStore
        @State private var segment = ""
        @State private var query = ""
        @State private var adding = false
        @State private var pendingDelete: InspectorRow?
        @State private var sharing: SharedSnapshot?
        var close: (() -> Void)?

        /// A snapshot ready to share.
        struct SharedSnapshot: Identifiable {
            let id = UUID()
            let text: String
        }

        private var scanner: String? { segment.isEmpty ? nil : segment }

        var body: some View {
            let state = store.state
            let sections = store.sections(scanner: scanner, query: query)
            List {
                if let banner = state.banner {
                    ReadOnlyBanner(text: banner).listRowInsets(EdgeInsets())
                }
                if let problem = state.liveProblem {
                    Label(problem, systemImage: "antenna.radiowaves.left.and.right.slash")
                        .font(.footnote).foregroundStyle(.secondary)
                }
                Picker("Source", selection: $segment) {
                    ForEach(state.segments()) { segment in
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
                                .swipeActions(edge: .trailing) {
                                    if row.isDeletable {
                                        Button("Delete", role: .destructive) { pendingDelete = row }
                                    }
                                }
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
                    }
                }
            }
            .searchable(text: $query, prompt: "Key or value; * and ? match patterns")
            .refreshable { await store.reload() }
            .overlay { if store.isLoading && state.items.isEmpty { ProgressView("Loading") } }
            .navigationTitle(state.hello.agent)
            .toolbar { toolbar(state) }
            .sheet(isPresented: $adding) { AddKeySheet(store: store, scanner: scanner) }
            .sheet(item: $sharing) { shared in
                VStack(spacing: 16) {
                    Text("Snapshot of \(state.hello.agent)").font(.headline)
                    Text("\(shared.text.utf8.count) bytes of JSON, secrets left out unless revealed")
                        .font(.callout).foregroundStyle(.secondary)
                    ShareLink(item: shared.text, preview: SharePreview("Jarvis snapshot of \(state.hello.agent)")) {
                        Label("Share", systemImage: "square.and.arrow.up")
                    }
                    Button("Done") { sharing = nil }
                }
                .padding()
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

        private var deleteBinding: Binding<Bool> {
            Binding(get: { pendingDelete != nil }, set: { if !$0 { pendingDelete = nil } })
        }

        @ToolbarContentBuilder
        private func toolbar(_ state: InspectorState) -> some ToolbarContent {
            ToolbarItemGroup(placement: .primaryAction) {
                if state.canEdit {
                    Button {
                        adding = true
                    } label: {
                        Label("Add key", systemImage: "plus")
                    }
                }
                Button {
                    Task { sharing = SharedSnapshot(text: await store.snapshot(scanner: scanner)) }
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
#endif
