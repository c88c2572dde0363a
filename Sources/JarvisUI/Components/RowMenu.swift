#if canImport(SwiftUI)
    import JarvisInspector
    import SwiftUI

    extension View {
        /// A row's context menu (long press on iOS, secondary click on macOS) and trailing
        /// swipe: copy its key, value and pointer as the model gives them, and delete where the
        /// model allows it.
        func rowActions(_ row: InspectorRow, store: PanelStore, delete: @escaping () -> Void) -> some View {
            contextMenu {
                if Pasteboard.isAvailable {
                    Button {
                        copy(store, row, .key)
                    } label: {
                        Label("Copy key", systemImage: "doc.on.doc")
                    }
                    if row.hasCopyableValue {
                        Button {
                            copy(store, row, .value)
                        } label: {
                            Label("Copy value", systemImage: "doc.on.clipboard")
                        }
                    }
                    if row.target.address != nil {
                        Button {
                            copy(store, row, .pointer)
                        } label: {
                            Label("Copy pointer", systemImage: "arrow.turn.down.right")
                        }
                    }
                }
                if row.isDeletable {
                    Button(role: .destructive, action: delete) {
                        Label("Delete…", systemImage: "trash")
                    }
                }
            }
            .swipeActions(edge: .trailing) {
                if row.isDeletable {
                    Button("Delete", role: .destructive, action: delete)
                }
            }
        }
    }

    /// Copies one of the row's texts, made only now (a value may be large).
    @MainActor private func copy(_ store: PanelStore, _ row: InspectorRow, _ part: InspectorCopy.Part) {
        guard let text = store.state.copyTexts(for: row.target)?.text(part) else { return }
        Pasteboard.copy(text, policy: PanelCopyPolicy(copying: part, of: row))
        store.show(.copied(part, of: row.title))
    }

    extension View {
        /// On macOS, the Delete key asks to delete the selected row.
        @ViewBuilder func deleteKey(_ action: @escaping () -> Void) -> some View {
            #if os(macOS)
                self.onDeleteCommand(perform: action)
            #else
                self
            #endif
        }
    }
#endif
