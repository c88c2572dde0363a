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
        @State private var bulkPreview: InspectorDeletion?
        @State private var adding = false
        @State private var rows: [InspectorRow] = []
        @State private var selection: InspectorRow.Target?

        /// What the rows depend on: recomputed (off the main thread) when any of it changes.
        private struct Question: Equatable {
            var version: Int
            var query: String
        }

        var body: some View {
            let state = store.state
            List(selection: PanelPlatform.selectsRows ? $selection : nil) {
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
                        .tag(row.target)
                        .rowActions(row, store: store) { pendingDelete = row }
                }
            }
            .textCase(nil)
            .deleteKey { pendingDelete = rows.first { $0.target == selection && $0.isDeletable } }
            .task(id: Question(version: store.version, query: query)) {
                let fresh = await store.rows(level, query: query)
                if !Task.isCancelled { rows = fresh }
            }
            .searchable(text: plainQuery($query), prompt: "Filter; * and ? match patterns")
            .plainSearch()
            .navigationTitle(level.path.last ?? "")
            .toolbar {
                ToolbarItemGroup(placement: .primaryAction) {
                    if case .keys = level, state.canEdit {
                        Button {
                            adding = true
                        } label: {
                            Label("Add key", systemImage: "plus")
                        }
                        if !query.isEmpty {
                            Button(role: .destructive) {
                                bulkPreview = state.deletion(of: rows)
                            } label: {
                                Label("Delete shown", systemImage: "trash")
                            }
                        }
                    }
                }
            }
            .sheet(isPresented: $adding) {
                if case .keys(let scanner, let container) = level {
                    AddKeySheet(store: store, scanner: scanner, container: container).panelSheetSize()
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
                bulkPreview?.question ?? "", isPresented: bulkBinding, titleVisibility: .visible,
                presenting: bulkPreview
            ) { deletion in
                if !deletion.entries.isEmpty {
                    Button("Delete \(deletion.entries.count)", role: .destructive) {
                        Task { await store.delete(deletion) }
                    }
                }
            }
        }

        private var deleteBinding: Binding<Bool> {
            Binding(get: { pendingDelete != nil }, set: { if !$0 { pendingDelete = nil } })
        }

        private var bulkBinding: Binding<Bool> {
            Binding(get: { bulkPreview != nil }, set: { if !$0 { bulkPreview = nil } })
        }
    }
#endif
