#if canImport(SwiftUI)
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// A list level of the model: one container's keys, or the members of a nested value.
    struct PanelListView: View {
        @ObservedObject var store: PanelStore
        let level: InspectorLevel
        @State private var query = ""
        @State private var pendingDelete: InspectorRow?
        @State private var bulkPreview: [String]?
        @State private var adding = false

        var body: some View {
            let state = store.state
            let rows = store.rows(level, query: query)
            List {
                if let banner = state.banner {
                    ReadOnlyBanner(text: banner).listRowInsets(EdgeInsets())
                }
                if rows.isEmpty {
                    PanelEmptyView(
                        title: query.isEmpty ? "Empty" : "No matches",
                        message: query.isEmpty ? "There is nothing here." : "Nothing matches \u{201C}\(query)\u{201D}.")
                }
                ForEach(rows) { row in
                    NavigationLink(value: PanelRoute(row)) { PanelRowView(row: row) }
                        .swipeActions(edge: .trailing) {
                            if row.isDeletable {
                                Button("Delete", role: .destructive) { pendingDelete = row }
                            }
                        }
                }
            }
            .searchable(text: $query, prompt: "Filter; * and ? match patterns")
            .navigationTitle(level.path.last ?? "")
            .toolbar {
                ToolbarItemGroup(placement: .primaryAction) {
                    if case .keys(let scanner, let container) = level, state.canEdit {
                        Button {
                            adding = true
                        } label: {
                            Label("Add key", systemImage: "plus")
                        }
                        if !query.isEmpty {
                            Button(role: .destructive) {
                                Task {
                                    if case .success(let keys) = await store.deletePreview(
                                        scanner: scanner, container: container, matching: glob)
                                    {
                                        bulkPreview = keys
                                    }
                                }
                            } label: {
                                Label("Delete matches", systemImage: "trash")
                            }
                        }
                    }
                }
            }
            .sheet(isPresented: $adding) {
                if case .keys(let scanner, let container) = level {
                    AddKeySheet(store: store, scanner: scanner, container: container)
                }
            }
            .confirmationDialog(
                "Delete \(pendingDelete?.title ?? "")?", isPresented: deleteBinding, titleVisibility: .visible,
                presenting: pendingDelete
            ) { row in
                Button("Delete", role: .destructive) { Task { await store.delete(row.target) } }
            } message: { row in
                Text(row.preview)
            }
            .confirmationDialog(
                bulkTitle, isPresented: bulkBinding, titleVisibility: .visible, presenting: bulkPreview
            ) { keys in
                if case .keys(let scanner, let container) = level, !keys.isEmpty {
                    Button("Delete \(keys.count)", role: .destructive) {
                        Task { await store.deleteMatching(scanner: scanner, container: container, glob: glob) }
                    }
                }
            } message: { keys in
                Text(
                    keys.isEmpty
                        ? "No stored key matches."
                        : keys.prefix(20).joined(separator: ", ") + (keys.count > 20 ? ", …" : ""))
            }
        }

        /// The filter as a glob: a plain text matches anywhere in the name.
        private var glob: String {
            InspectorFilter(query).isGlob ? query : "*\(query)*"
        }

        private var bulkTitle: String {
            "Delete \(bulkPreview?.count ?? 0) key\(bulkPreview?.count == 1 ? "" : "s") matching \(glob)?"
        }

        private var deleteBinding: Binding<Bool> {
            Binding(get: { pendingDelete != nil }, set: { if !$0 { pendingDelete = nil } })
        }

        private var bulkBinding: Binding<Bool> {
            Binding(get: { bulkPreview != nil }, set: { if !$0 { bulkPreview = nil } })
        }
    }
#endif
